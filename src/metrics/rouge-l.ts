/**
 * JSONL `rouge_l`: an LCS F1 on whitespace tokens after lowercasing — no punctuation stripping, unlike
 * `rougeL` (rouge_score's tokenizer). P = LCS/|prediction|, R = LCS/|reference|, F1 = 2PR/(P+R); two empty
 * texts score 1, one empty text 0. Best over references; 0–1 scale.
 */

import { pythonSplit } from '../python/semantics/string.js';
import { checkKwargs, requireReferences } from './kwargs.js';
import { lcsLength } from './rouge.js';
import type { GenerationMetricInput, MetricDefinition } from './types.js';

export function rougeLWhitespace(prediction: string, reference: string): number {
  const predicted = pythonSplit(prediction.toLowerCase());
  const gold = pythonSplit(reference.toLowerCase());
  if (predicted.length === 0 || gold.length === 0) return predicted.length === gold.length ? 1 : 0;
  const lcs = lcsLength(gold, predicted);
  if (lcs === 0) return 0;
  const precision = lcs / predicted.length;
  const recall = lcs / gold.length;
  return (2 * precision * recall) / (precision + recall);
}

export const rougeLJsonlMetric: MetricDefinition = {
  name: 'rouge_l',
  higherIsBetter: true,
  defaultAggregation: 'mean',
  compute: ({ references, prediction, kwargs }: GenerationMetricInput) => {
    checkKwargs('rouge_l', kwargs, []);
    requireReferences('rouge_l', references);
    return Math.max(...references.map((reference) => rougeLWhitespace(prediction, reference)));
  },
};
