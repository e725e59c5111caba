/**
 * lm-eval's `mcc` metric and `matthews_corrcoef` aggregation: `sklearn.metrics.matthews_corrcoef(golds,
 * preds)`, the multiclass form over the confusion matrix C (float64, as sklearn computes it):
 * cov(y,ŷ) = trace(C)·n − t·p, cov(ŷ,ŷ) = n² − p·p, cov(y,y) = n² − t·t, MCC = cov(y,ŷ)/√(cov(y,y)·cov(ŷ,ŷ)),
 * and 0.0 when the denominator is 0.
 */

import { labelPairCompute } from './f1.js';
import { readLabelPairs, uniqueLabels } from './labels.js';
import type { MetricDefinition } from './types.js';

export function matthewsCorrcoefAggregation(items: unknown[]): number {
  const { golds, preds } = readLabelPairs('matthews_corrcoef', items);
  const labels = uniqueLabels(golds, preds);
  const index = new Map(labels.map((label, position) => [label, position]));
  const trueSums = new Array<number>(labels.length).fill(0);
  const predSums = new Array<number>(labels.length).fill(0);
  let correct = 0;
  golds.forEach((gold, position) => {
    trueSums[index.get(gold) as number]++;
    predSums[index.get(preds[position]) as number]++;
    if (gold === preds[position]) correct++;
  });
  const samples = golds.length;
  let truePred = 0;
  let predPred = 0;
  let trueTrue = 0;
  for (let label = 0; label < labels.length; label++) {
    truePred += trueSums[label] * predSums[label];
    predPred += predSums[label] * predSums[label];
    trueTrue += trueSums[label] * trueSums[label];
  }
  const covariance = correct * samples - truePred;
  const predVariance = samples * samples - predPred;
  const trueVariance = samples * samples - trueTrue;
  if (predVariance * trueVariance === 0) return 0;
  return covariance / Math.sqrt(trueVariance * predVariance);
}

export const mccMetric: MetricDefinition = {
  name: 'mcc',
  higherIsBetter: true,
  defaultAggregation: 'matthews_corrcoef',
  compute: labelPairCompute,
};
