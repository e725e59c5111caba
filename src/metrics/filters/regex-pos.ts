/**
 * lm-eval `regex_pos` (POSFilter): reads `('token', 'TAG')` pairs out of each response and keeps the tags.
 * As in lm-eval, `regex_pattern` and `group_select` are accepted but unused; no tags → `fallback`
 * (default `["invalid"]`). A response that is already a list of pairs has its tags taken directly.
 */

import { AssayError } from '../../errors.js';
import { pythonFindAll } from '../../python/semantics/regex.js';
import type { FilterStepConfig } from '../../task-config/filter-config.js';
import { badArgument, describe, type FilterDefinition, type FilterStep, iterateResponses } from './types.js';

const TAGGED_TOKEN = "\\('([^']*)', '([^']*)'\\)";

function build(config: FilterStepConfig): FilterStep {
  const fallback = config.fallback ?? ['invalid'];
  if (fallback === null) badArgument(config, 'fallback', 'a value');
  return (responses) =>
    iterateResponses(responses, 'regex_pos').map((response) => {
      const pairs =
        typeof response === 'string' ? (pythonFindAll(TAGGED_TOKEN, response) as string[][]) : response;
      if (!Array.isArray(pairs)) {
        throw new AssayError(
          'scoring_error',
          `filter regex_pos: cannot read tags from ${describe(response)}`,
          {
            location: { field: 'filter_list' },
          },
        );
      }
      const tags = pairs.map((pair) => (Array.isArray(pair) ? pair[1] : undefined));
      return tags.length > 0 ? tags : fallback;
    });
}

export const regexPosFilter: FilterDefinition = {
  arguments: ['regex_pattern', 'group_select', 'fallback'],
  build,
};
