/**
 * lm-eval `remove_whitespace` (WhitespaceFilter): `resp.strip()` on each response. lm-eval used `lstrip()`
 * until PR #3408 (first released in v0.4.9.2); the contract is lm-eval main, so both ends are stripped.
 */

import { AssayError } from '../../errors.js';
import { pythonStrip } from '../../python/semantics/string.js';
import { describe, type FilterDefinition, iterateResponses } from './types.js';

export const removeWhitespaceFilter: FilterDefinition = {
  arguments: [],
  build: () => (responses) =>
    iterateResponses(responses, 'remove_whitespace').map((response) => {
      if (typeof response !== 'string') {
        throw new AssayError(
          'scoring_error',
          `filter remove_whitespace: expected a string, got ${describe(response)}`,
          {
            location: { field: 'filter_list' },
          },
        );
      }
      return pythonStrip(response);
    }),
};
