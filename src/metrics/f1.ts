/**
 * lm-eval's `f1` (lm_eval/api/metrics.py): each sample's item is (gold, pred) and the aggregation is
 * `sklearn.metrics.f1_score(golds, preds)` with sklearn's defaults, i.e. **binary** F1 of the positive
 * label 1 — not macro F1. As in sklearn: more than two distinct labels is an error ("Target is multiclass
 * but average='binary'"), two labels without 1 is an error, and no positives at all score 0.0.
 * F1 = 2·tp / (2·tp + fp + fn), the expression sklearn ≥ 1.3 evaluates.
 */
import { AssayError } from '../errors.js';
import { readLabelPairs, uniqueLabels } from './labels.js';
import type { GenerationMetricInput, MetricDefinition } from './types.js';

export function f1Aggregation(items: unknown[]): number {
  const { golds, preds } = readLabelPairs('f1', items);
  const labels = uniqueLabels(golds, preds);
  if (labels.length > 2) {
    throw new AssayError(
      'scoring_error',
      `aggregation f1 is sklearn's binary F1 (positive label 1), but the items have ${labels.length} labels: ${labels.slice(0, 10).join(', ')}`,
    );
  }
  if (!labels.includes(1) && labels.length === 2) {
    throw new AssayError(
      'scoring_error',
      `aggregation f1: the positive label 1 is not one of the labels ${labels.join(', ')}`,
    );
  }
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  golds.forEach((gold, index) => {
    const pred = preds[index];
    if (gold === 1 && pred === 1) truePositives++;
    else if (pred === 1) falsePositives++;
    else if (gold === 1) falseNegatives++;
  });
  const denominator = 2 * truePositives + falsePositives + falseNegatives;
  return denominator === 0 ? 0 : (2 * truePositives) / denominator;
}

/**
 * For multiple_choice the evaluator builds (gold, pred) from the log-likelihoods. For generate_until,
 * lm-eval's passthrough receives [gold, result], so the item is (first reference, prediction).
 */
export function labelPairCompute({ references, prediction }: GenerationMetricInput): [string, string] {
  return [references[0], prediction];
}

export const f1Metric: MetricDefinition = {
  name: 'f1',
  higherIsBetter: true,
  defaultAggregation: 'f1',
  compute: labelPairCompute,
};
