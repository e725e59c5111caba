/**
 * `exact_match` as lm-eval computes it (lm_eval/api/metrics.py exact_match_hf_evaluate, a port of HF
 * evaluate's exact_match): each `regexes_to_ignore` pattern is removed from both sides with `re.sub`, then
 * `ignore_case` lowercases, `ignore_punctuation` deletes `string.punctuation`, `ignore_numbers` deletes
 * 0-9, and the strings must be equal. With several references the sample scores 1 if any matches, which is
 * what lm-eval's multiple-target path does (`1.0 if scores > 0.0`).
 */

import { AssayError } from '../errors.js';
import { compilePythonRegex, pythonSub } from '../python/semantics/regex.js';
import { PYTHON_PUNCTUATION, removeCharacters } from '../python/semantics/string.js';
import { booleanKwarg, checkKwargs, requireReferences } from './kwargs.js';
import type { GenerationMetricInput, MetricDefinition } from './types.js';

export interface ExactMatchOptions {
  regexesToIgnore?: readonly string[];
  ignoreCase?: boolean;
  ignorePunctuation?: boolean;
  ignoreNumbers?: boolean;
}

const DIGITS = '0123456789';

export function exactMatchNormalize(text: string, options: ExactMatchOptions): string {
  let output = text;
  for (const pattern of options.regexesToIgnore ?? [])
    output = pythonSub(compilePythonRegex(pattern), '', output);
  if (options.ignoreCase) output = output.toLowerCase();
  if (options.ignorePunctuation) output = removeCharacters(output, PYTHON_PUNCTUATION);
  if (options.ignoreNumbers) output = removeCharacters(output, DIGITS);
  return output;
}

export function exactMatch(
  prediction: string,
  references: readonly string[],
  options: ExactMatchOptions = {},
): number {
  const normalized = exactMatchNormalize(prediction, options);
  return references.some((reference) => exactMatchNormalize(reference, options) === normalized) ? 1 : 0;
}

function compute({ references, prediction, kwargs }: GenerationMetricInput): number {
  checkKwargs('exact_match', kwargs, [
    'regexes_to_ignore',
    'ignore_case',
    'ignore_punctuation',
    'ignore_numbers',
  ]);
  requireReferences('exact_match', references);
  const regexes = kwargs.regexes_to_ignore ?? [];
  if (!Array.isArray(regexes) || !regexes.every((pattern) => typeof pattern === 'string')) {
    throw new AssayError(
      'invalid_config',
      'metric exact_match: regexes_to_ignore must be a list of regex strings',
      {
        location: { field: 'metric_list' },
      },
    );
  }
  return exactMatch(prediction, references, {
    regexesToIgnore: regexes,
    ignoreCase: booleanKwarg('exact_match', kwargs, 'ignore_case'),
    ignorePunctuation: booleanKwarg('exact_match', kwargs, 'ignore_punctuation'),
    ignoreNumbers: booleanKwarg('exact_match', kwargs, 'ignore_numbers'),
  });
}

export const exactMatchMetric: MetricDefinition = {
  name: 'exact_match',
  higherIsBetter: true,
  defaultAggregation: 'mean',
  compute,
};
