/**
 * Prediction-powered inference for a mean (PPI++: Angelopoulos, Duchi & Zrnic 2024, "PPI++: Efficient
 * Prediction-Powered Inference", arXiv:2311.01453), as the `ppi_py` package's `ppi_mean_pointestimate` /
 * `ppi_mean_ci` compute it. A judge scores every document; humans label a random slice of n of them; the
 * other N documents carry the judge's score alone. With Y the human labels, Ŷ the judge's scores on the
 * labelled slice and Ŷᵘ its scores on the unlabelled documents:
 *
 *   θ̂_λ = λ·mean(Ŷᵘ) + mean(Y − λŶ),
 *   SE² = Var₀(λŶᵘ)/N + Var₀(Y − λŶ)/n   (Var₀ the 1/n population variance, NumPy's default `std`),
 *   interval θ̂ ± z·SE.
 *
 * The rectifier mean(Y − λŶ) removes the judge's bias whatever λ is; λ only trades variance. Its tuned
 * value minimises the variance: λ̂ = 2·Ĉov(Y, Ŷ) / (2(1 + n/N)·V̂ar(Ŷ ∪ Ŷᵘ)), clipped to [0, 1], with
 * Ĉov over the n labelled items (1/n) and V̂ar over all n + N judge scores (1/(n+N−1)). λ = 1 is plain
 * PPI (Angelopoulos et al. 2023), λ = 0 the classical mean of the labels alone.
 *
 * Beside it sits the naive estimate, the judge's mean over all n + N documents with its usual interval,
 * which treats the judge as ground truth: its interval shrinks around the judge's bias, not the truth.
 */

import { mean, meanStderr } from './descriptive.js';
import { normalQuantile } from './distributions.js';
import type { Interval } from './proportion-interval.js';
import { badArgument, requireFiniteValues, requireProbability, requireSameLength } from './validate.js';

export interface PpiMeanInput {
  /** Human labels (or scores) on the labelled slice. */
  labels: ArrayLike<number>;
  /** The judge's scores on the same labelled documents, in the same order. */
  judgeLabelled: ArrayLike<number>;
  /** The judge's scores on the documents without a human label. */
  judgeUnlabelled: ArrayLike<number>;
}

export interface PpiMeanOptions {
  confidence?: number;
  /** A fixed λ; default: the tuned λ̂. */
  lambda?: number;
}

export interface EstimateWithInterval extends Interval {
  estimate: number;
  standardError: number;
}

export interface PpiMeanEstimate extends EstimateWithInterval {
  lambda: number;
  confidence: number;
  labelled: number;
  unlabelled: number;
  /** The judge's mean over every document, with the interval that takes the judge for the truth. */
  naive: EstimateWithInterval;
  /** The labels' mean alone (λ = 0 over the labelled slice). */
  classical: EstimateWithInterval;
}

/** The variance-minimising λ̂, clipped to [0, 1]; 0 when there are no unlabelled documents or Ŷ is constant. */
export function ppiTunedLambda(input: PpiMeanInput): number {
  const { labels, judgeLabelled, judgeUnlabelled } = input;
  const n = labels.length;
  const unlabelled = judgeUnlabelled.length;
  if (unlabelled === 0 || n < 2) return 0;
  const labelMean = mean(labels);
  const judgeMean = mean(judgeLabelled);
  let covariance = 0;
  for (let i = 0; i < n; i++) covariance += (labels[i] - labelMean) * (judgeLabelled[i] - judgeMean);
  covariance /= n;
  const all = [...Array.from(judgeLabelled), ...Array.from(judgeUnlabelled)];
  const allMean = mean(all);
  let variance = 0;
  for (const value of all) variance += (value - allMean) ** 2;
  variance /= all.length - 1;
  if (variance === 0) return 0;
  const lambda = covariance / ((1 + n / unlabelled) * variance);
  return Math.min(1, Math.max(0, lambda));
}

export function ppiMean(input: PpiMeanInput, options: PpiMeanOptions = {}): PpiMeanEstimate {
  const where = 'ppiMean';
  const { labels, judgeLabelled, judgeUnlabelled } = input;
  requireSameLength(where, labels, judgeLabelled, 'labels and judgeLabelled');
  requireFiniteValues(where, 'labels', labels, 2);
  requireFiniteValues(where, 'judgeLabelled', judgeLabelled, 2);
  requireFiniteValues(where, 'judgeUnlabelled', judgeUnlabelled, 0);
  const confidence = options.confidence ?? 0.95;
  requireProbability(where, 'confidence', confidence);
  if (options.lambda !== undefined && !(options.lambda >= 0 && options.lambda <= 1)) {
    throw badArgument(where, `lambda must be in [0, 1], got ${options.lambda}`);
  }
  const n = labels.length;
  const unlabelled = judgeUnlabelled.length;
  // Without unlabelled documents the imputed term has nothing to average: the estimate is the labels' mean.
  const lambda = unlabelled === 0 ? 0 : (options.lambda ?? ppiTunedLambda(input));
  const z = normalQuantile(0.5 + confidence / 2);

  const rectifier = Array.from({ length: n }, (_, i) => labels[i] - lambda * judgeLabelled[i]);
  const rectifierMean = mean(rectifier);
  let estimate = rectifierMean;
  let variance = populationVariance(rectifier) / n;
  if (unlabelled > 0) {
    const imputed = Array.from(judgeUnlabelled, (value) => lambda * value);
    estimate += mean(imputed);
    variance += populationVariance(imputed) / unlabelled;
  }
  const standardError = Math.sqrt(variance);

  const allJudge = [...Array.from(judgeLabelled), ...Array.from(judgeUnlabelled)];
  const naiveMean = mean(allJudge);
  const naiveError = meanStderr(allJudge);
  const classicalMean = mean(labels);
  const classicalError = meanStderr(labels);
  return {
    estimate,
    standardError,
    low: estimate - z * standardError,
    high: estimate + z * standardError,
    lambda,
    confidence,
    labelled: n,
    unlabelled,
    naive: withInterval(naiveMean, naiveError, z),
    classical: withInterval(classicalMean, classicalError, z),
  };
}

function withInterval(estimate: number, standardError: number, z: number): EstimateWithInterval {
  return { estimate, standardError, low: estimate - z * standardError, high: estimate + z * standardError };
}

function populationVariance(values: readonly number[]): number {
  const mu = mean(values);
  let sum = 0;
  for (const value of values) sum += (value - mu) ** 2;
  return sum / values.length;
}
