/**
 * lm-eval `remove_whitespace` (WhitespaceFilter): `resp.strip()` on each response. lm-eval used `lstrip()`
 * until PR #3408 (first released in v0.4.9.2); the contract is lm-eval main, so both ends are stripped.
 */
import { pythonStrip } from '../python-string.js';
import { type FilterDefinition, describe, iterateResponses } from './types.js';
import { AssayError } from '../../errors.js';

export const removeWhitespaceFilter: FilterDefinition = {
  arguments: [],
  build: () => (responses) =>
    iterateResponses(responses, 'remove_whitespace').map((response) => {
      if (typeof response !== 'string') {
        throw new AssayError(
          'bad_argument',
          `filter remove_whitespace: expected a string, got ${describe(response)}`,
          {
            location: { field: 'filter_list' },
          },
        );
      }
      return pythonStrip(response);
    }),
};
