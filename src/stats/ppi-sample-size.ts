/**
 * How many human labels a prediction-powered mean needs for a target interval half-width. With T documents
 * of which n are labelled and N = T − n are not, the PPI++ variance at the tuned λ (ppi-mean.ts) is
 *
 *   V(n) = λ²σ_f²/N + (σ_Y² − 2λ·c + λ²σ_f²)/n,   λ = clip(c / ((1 + n/N)·σ_f²), 0, 1),
 *
 * with σ_Y² the labels' variance, σ_f² the judge scores' variance and c their covariance (estimated on a
 * pilot slice). The answer is the smallest n with z·√V(n) ≤ the half-width, found by scanning n (V falls
 * as n grows; the scan is O(T) arithmetic). Beside it: the classical count z²σ_Y²/h² that labels alone
 * need, which the judge's correlation with the labels is what PPI saves on.
 */

import { sampleCovariance, sampleVariance } from './descriptive.js';
import { normalQuantile } from './distributions.js';
import { badArgument, requireProbability, requireSameLength } from './validate.js';

export interface PpiMoments {
  labelVariance: number;
  judgeVariance: number;
  covariance: number;
}

export interface PpiSampleSizeInputs extends PpiMoments {
  /** All documents the judge scores (labelled or not). */
  documents: number;
  /** Target half-width of the interval. */
  halfWidth: number;
  confidence?: number;
}

export interface PpiSampleSize {
  /** The smallest label count that reaches the half-width, or null when even labelling every document does not. */
  labels: number | null;
  /** λ at that count. */
  lambda: number | null;
  /** Labels the classical (labels-only) interval needs for the same half-width, ⌈z²σ_Y²/h²⌉. */
  classicalLabels: number;
}

/** The PPI++ variance of the mean with n of `documents` labelled, at the tuned λ. */
export function ppiVariance(
  moments: PpiMoments,
  labelled: number,
  documents: number,
): { variance: number; lambda: number } {
  const { labelVariance, judgeVariance, covariance } = moments;
  const unlabelled = documents - labelled;
  const lambda =
    unlabelled === 0 || judgeVariance === 0
      ? 0
      : Math.min(1, Math.max(0, covariance / ((1 + labelled / unlabelled) * judgeVariance)));
  const imputed = unlabelled === 0 ? 0 : (lambda * lambda * judgeVariance) / unlabelled;
  const rectifier = (labelVariance - 2 * lambda * covariance + lambda * lambda * judgeVariance) / labelled;
  return { variance: imputed + rectifier, lambda };
}

export function ppiSampleSize(inputs: PpiSampleSizeInputs): PpiSampleSize {
  const where = 'ppiSampleSize';
  const confidence = inputs.confidence ?? 0.95;
  requireProbability(where, 'confidence', confidence);
  if (!(inputs.halfWidth > 0))
    throw badArgument(where, `halfWidth must be positive, got ${inputs.halfWidth}`);
  if (!Number.isInteger(inputs.documents) || inputs.documents < 2) {
    throw badArgument(where, `documents must be an integer ≥ 2, got ${inputs.documents}`);
  }
  if (!(inputs.labelVariance >= 0) || !(inputs.judgeVariance >= 0) || !Number.isFinite(inputs.covariance)) {
    throw badArgument(where, 'variances must be ≥ 0 and the covariance finite');
  }
  const z = normalQuantile(0.5 + confidence / 2);
  const target = (inputs.halfWidth / z) ** 2;
  const classicalLabels = Math.max(2, Math.ceil((inputs.labelVariance / target) * (1 - 1e-12)));
  for (let n = 2; n <= inputs.documents; n++) {
    const { variance, lambda } = ppiVariance(inputs, n, inputs.documents);
    if (variance <= target) return { labels: n, lambda, classicalLabels };
  }
  return { labels: null, lambda: null, classicalLabels };
}

/** Moments for `ppiSampleSize` from a pilot: labels and judge scores on the labelled slice, judge scores on all documents. */
export function ppiMomentsFromPilot(
  labels: ArrayLike<number>,
  judgeLabelled: ArrayLike<number>,
  judgeAll: ArrayLike<number>,
): PpiMoments {
  requireSameLength('ppiMomentsFromPilot', labels, judgeLabelled, 'labels and judgeLabelled');
  return {
    labelVariance: sampleVariance(labels),
    judgeVariance: sampleVariance(judgeAll),
    covariance: sampleCovariance(labels, judgeLabelled),
  };
}
