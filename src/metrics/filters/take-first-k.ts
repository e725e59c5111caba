/** lm-eval `take_first_k`: keeps the first `k` responses; fewer than `k` is an error (raise `repeats`). */
import { AssayError } from '../../errors.js';
import type { FilterStepConfig } from '../../task-config/filter-config.js';
import { badArgument, type FilterDefinition, integerArgument, iterateResponses } from './types.js';

function build(config: FilterStepConfig) {
  if (config.k === undefined) badArgument(config, 'k', 'given (the number of responses to keep)');
  const k = integerArgument(config, 'k');
  return (responses: unknown) => {
    const list = iterateResponses(responses, 'take_first_k');
    if (list.length < k) {
      throw new AssayError(
        'scoring_error',
        `filter take_first_k: need at least ${k} responses per doc to take the first ${k}, got ${list.length}; increase the task's repeats`,
        { location: { field: 'filter_list' } },
      );
    }
    return list.slice(0, k);
  };
}

export const takeFirstKFilter: FilterDefinition = { arguments: ['k'], build };
