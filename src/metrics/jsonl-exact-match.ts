/** JSONL `exact_match`: equal after `jsonlNormalize` to any reference. */
import { jsonlNormalize } from './jsonl-normalize.js';
import { checkKwargs, requireReferences } from './kwargs.js';
import type { GenerationMetricInput, MetricDefinition } from './types.js';

export function jsonlExactMatch(prediction: string, references: readonly string[]): number {
  const normalized = jsonlNormalize(prediction);
  return references.some((reference) => jsonlNormalize(reference) === normalized) ? 1 : 0;
}

export const jsonlExactMatchMetric: MetricDefinition = {
  name: 'jsonl_exact_match',
  higherIsBetter: true,
  defaultAggregation: 'mean',
  compute: ({ references, prediction, kwargs }: GenerationMetricInput) => {
    checkKwargs('jsonl_exact_match', kwargs, []);
    requireReferences('jsonl_exact_match', references);
    return jsonlExactMatch(prediction, references);
  },
};
