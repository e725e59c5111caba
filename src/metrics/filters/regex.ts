/**
 * lm-eval `regex` (RegexFilter, lm_eval/filters/extraction.py): for each response, `re.findall`, pick the
 * `group_select`-th match (negative counts from the end), take a tuple's first non-empty group, strip it.
 * No match → `fallback`. A response that is not a string is treated as "".
 */

import { type CompiledPythonRegex, compilePythonRegex, pythonFindAll } from '../../python/semantics/regex.js';
import { pythonStrip } from '../../python/semantics/string.js';
import type { FilterStepConfig } from '../../task-config/filter-config.js';
import {
  type FilterDefinition,
  type FilterStep,
  integerArgument,
  iterateResponses,
  selectIndex,
  stringArgument,
} from './types.js';

export const DEFAULT_REGEX_PATTERN = '#### (\\-?[0-9\\.\\,]+)';
export const DEFAULT_FALLBACK = '[invalid]';

/** One response through the regex: the selected match, stripped, or undefined when nothing matched. */
export function extractMatch(
  regex: CompiledPythonRegex,
  response: unknown,
  groupSelect: number,
  fallback: string,
): string | undefined {
  const matches = pythonFindAll(regex, typeof response === 'string' ? response : '');
  if (matches.length === 0) return undefined;
  let match = selectIndex(matches, groupSelect, `regex ${JSON.stringify(regex.pattern)} group_select`);
  if (Array.isArray(match)) match = match.find((group) => group !== '') ?? fallback;
  return pythonStrip(match);
}

function build(config: FilterStepConfig): FilterStep {
  const regex = compilePythonRegex(stringArgument(config, 'regex_pattern', DEFAULT_REGEX_PATTERN));
  const groupSelect = integerArgument(config, 'group_select', 0);
  const fallback = stringArgument(config, 'fallback', DEFAULT_FALLBACK);
  return (responses) =>
    iterateResponses(responses, 'regex').map(
      (response) => extractMatch(regex, response, groupSelect, fallback) ?? fallback,
    );
}

export const regexFilter: FilterDefinition = {
  arguments: ['regex_pattern', 'group_select', 'fallback'],
  build,
};
