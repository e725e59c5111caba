/**
 * JSONL `substring_contains`: 1 if the normalised prediction contains any normalised reference. An empty
 * reference would be contained in everything, so it only matches an empty prediction.
 */
import { jsonlNormalize } from './jsonl-normalize.js';
import { checkKwargs, requireReferences } from './kwargs.js';
import type { GenerationMetricInput, MetricDefinition } from './types.js';

export function substringContains(prediction: string, references: readonly string[]): number {
  const normalized = jsonlNormalize(prediction);
  return references.some((reference) => {
    const needle = jsonlNormalize(reference);
    return needle === '' ? normalized === '' : normalized.includes(needle);
  })
    ? 1
    : 0;
}

export const substringContainsMetric: MetricDefinition = {
  name: 'substring_contains',
  higherIsBetter: true,
  defaultAggregation: 'mean',
  compute: ({ references, prediction, kwargs }: GenerationMetricInput) => {
    checkKwargs('substring_contains', kwargs, []);
    requireReferences('substring_contains', references);
    return substringContains(prediction, references);
  },
};
