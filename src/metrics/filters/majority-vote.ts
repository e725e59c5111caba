/**
 * lm-eval `majority_vote`: `[Counter(responses).most_common(1)[0][0]]`. Ties go to the response seen first,
 * as `most_common` sorts stably over insertion order.
 */
import { AssayError } from '../../errors.js';
import { describe, type FilterDefinition, iterateResponses } from './types.js';

function vote(responses: unknown): unknown[] {
  const counts = new Map<unknown, number>();
  for (const response of iterateResponses(responses, 'majority_vote')) {
    if (response !== null && typeof response === 'object') {
      // Python raises TypeError (unhashable) for lists and dicts.
      throw new AssayError('scoring_error', `filter majority_vote: cannot count ${describe(response)}`, {
        location: { field: 'filter_list' },
      });
    }
    counts.set(response, (counts.get(response) ?? 0) + 1);
  }
  let best: unknown;
  let bestCount = 0;
  for (const [response, count] of counts) {
    if (count > bestCount) {
      best = response;
      bestCount = count;
    }
  }
  if (bestCount === 0) {
    throw new AssayError('scoring_error', 'filter majority_vote: a doc has no responses', {
      location: { field: 'filter_list' },
    });
  }
  return [best];
}

export const majorityVoteFilter: FilterDefinition = { arguments: [], build: () => vote };
