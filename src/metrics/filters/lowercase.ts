/** lm-eval `lowercase`: `resp.lower()` on each response. */
import { AssayError } from '../../errors.js';
import { describe, type FilterDefinition, iterateResponses } from './types.js';

export function mapStrings(name: string, transform: (text: string) => string) {
  return (responses: unknown) =>
    iterateResponses(responses, name).map((response) => {
      if (typeof response !== 'string') {
        throw new AssayError(
          'scoring_error',
          `filter ${name}: expected a string, got ${describe(response)}`,
          {
            location: { field: 'filter_list' },
          },
        );
      }
      return transform(response);
    });
}

export const lowercaseFilter: FilterDefinition = {
  arguments: [],
  build: () => mapStrings('lowercase', (text) => text.toLowerCase()),
};
