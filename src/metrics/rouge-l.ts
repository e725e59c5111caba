/**
 * JSONL `rouge_l`, as the "build your own harness" lesson defines it: an LCS F1 over word tokens, the
 * runs of letters and digits (any script) of the lowercased text, so punctuation and underscores only
 * separate words ("mammal." is "mammal"). P = LCS/|prediction|, R = LCS/|reference|, F1 = 2PR/(P+R);
 * a prediction without tokens scores 0, and a reference without tokens matches nothing. Best over
 * references; 0–1 scale. Unlike `rougeL` (rouge_score), non-ASCII words are words, and there is no
 * stemming.
 */

import { checkKwargs, requireReferences } from './kwargs.js';
import { lcsLength } from './rouge.js';
import type { GenerationMetricInput, MetricDefinition } from './types.js';

/** Python's `re.findall(r"[^\W_]+", text.lower())`: `\w` minus `_` is letters and numbers. */
export function rougeLTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function rougeLF1(prediction: string, reference: string): number {
  const predicted = rougeLTokens(prediction);
  const gold = rougeLTokens(reference);
  if (predicted.length === 0 || gold.length === 0) return 0;
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
    return Math.max(...references.map((reference) => rougeLF1(prediction, reference)));
  },
};
