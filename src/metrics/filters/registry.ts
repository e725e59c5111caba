/**
 * Every filter lm-eval's task YAMLs can name, and the pipeline that runs a `filter_list` entry.
 */
import { AssayError, closestNames } from '../../errors.js';
import { isPythonRef } from '../../python/python-ref.js';
import type { Doc } from '../../task-config/doc.js';
import type { FilterConfig, FilterStepConfig } from '../../task-config/filter-config.js';
import { classFilterStep } from './class-filter.js';
import { customFilter } from './custom.js';
import { formatSpanFilter } from './format-span.js';
import { lowercaseFilter } from './lowercase.js';
import { majorityVoteFilter } from './majority-vote.js';
import { mapFilter } from './map.js';
import { multiChoiceRegexFilter } from './multi-choice-regex.js';
import { pythonFilterClass } from './python-filter.js';
import { regexFilter } from './regex.js';
import { regexPosFilter } from './regex-pos.js';
import { removeWhitespaceFilter } from './remove-whitespace.js';
import { takeFirstFilter } from './take-first.js';
import { takeFirstKFilter } from './take-first-k.js';
import type { FilterDefinition, FilterPipeline, FilterStep } from './types.js';
import { uppercaseFilter } from './uppercase.js';

export type FilterName =
  | 'regex'
  | 'regex_pos'
  | 'take_first'
  | 'take_first_k'
  | 'majority_vote'
  | 'remove_whitespace'
  | 'lowercase'
  | 'uppercase'
  | 'multi_choice_regex'
  | 'map'
  | 'format_span'
  | 'custom';

export const FILTERS: Record<FilterName, FilterDefinition> = {
  regex: regexFilter,
  regex_pos: regexPosFilter,
  take_first: takeFirstFilter,
  take_first_k: takeFirstKFilter,
  majority_vote: majorityVoteFilter,
  remove_whitespace: removeWhitespaceFilter,
  lowercase: lowercaseFilter,
  uppercase: uppercaseFilter,
  multi_choice_regex: multiChoiceRegexFilter,
  map: mapFilter,
  format_span: formatSpanFilter,
  custom: customFilter,
};

export function getFilter(name: string): FilterDefinition {
  if (Object.hasOwn(FILTERS, name)) return FILTERS[name as FilterName];
  const names = Object.keys(FILTERS);
  const suggestions = closestNames(name, names);
  throw new AssayError(
    'unknown_filter',
    `unknown filter ${JSON.stringify(name)}${suggestions.length ? ` (did you mean ${suggestions.join(', ')}?)` : ''}; valid filters: ${names.join(', ')}`,
    { location: { field: 'filter_list' } },
  );
}

/** Builds one step, rejecting keys the filter does not take (lm-eval raises TypeError for those). */
export function buildFilterStep(config: FilterStepConfig): FilterStep {
  if (typeof config.function !== 'string') {
    // lm-eval: `function: !function utils.MyFilter` is built with the step's other keys, then applied.
    if (isPythonRef(config.function)) {
      const { function: _class, ...kwargs } = config;
      return pythonFilterClass(config.function, kwargs);
    }
    return classFilterStep(config.function, config);
  }
  const definition = getFilter(config.function);
  for (const key of Object.keys(config)) {
    if (key !== 'function' && !definition.arguments.includes(key)) {
      const accepted = definition.arguments.length ? definition.arguments.join(', ') : 'none';
      throw new AssayError(
        'invalid_config',
        `filter ${config.function} has no argument ${JSON.stringify(key)}; it takes: ${accepted}`,
        { location: { field: 'filter_list' } },
      );
    }
  }
  return definition.build(config);
}

export function buildFilterPipeline(config: FilterConfig): FilterPipeline {
  const steps = config.filter.map(buildFilterStep);
  return {
    name: config.name,
    batched: steps.some((step) => step.batch !== undefined),
    apply(responses: unknown, doc: Doc): unknown {
      let value = responses;
      for (const step of steps) value = step(value, doc);
      return value;
    },
    async applyAll(values: unknown[], docs: Doc[], task: string): Promise<unknown[]> {
      let current = values;
      for (const step of steps) {
        current = step.batch
          ? await step.batch(current, docs, task)
          : current.map((value, index) => step(value, docs[index]));
      }
      return current;
    },
  };
}

/** lm-eval's implicit pipeline when a task has no filter_list: `none`, take_first. */
export function defaultFilterPipeline(): FilterPipeline {
  return buildFilterPipeline({ name: 'none', filter: [{ function: 'take_first' }] });
}
