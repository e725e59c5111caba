/**
 * Clustered standard error of a mean, for items that are not independent: several questions on one
 * passage, or a task's `cluster_by` field (e.g. subject).
 *
 * `miller` is Miller (2024), "Adding Error Bars to Evals", eq. 4:
 *   SE² = SE_CLT² + (1/n²) Σ_c Σ_{i≠j∈c} eᵢ·eⱼ,  SE_CLT² = Σeᵢ² / (n(n−1)),  eᵢ = sᵢ − s̄.
 * `sandwich` is the cluster-robust (CR0) form (1/n²) Σ_c (Σ_{i∈c} eᵢ)²; it differs from eq. 4 only in
 * using n instead of n − 1 on the diagonal. With `clusterCorrection` the variance is multiplied by
 * C/(C−1) (the CR1 small-sample factor that inspect_ai applies); eq. 4 as published has no such factor,
 * so it is off by default and the result says whether it was applied.
 */
import { mean, meanStderr } from './descriptive.js';
import { badArgument, requireFiniteValues, requireSameLength } from './validate.js';

export type ClusteredEstimator = 'miller' | 'sandwich';

export interface ClusteredStderrOptions {
  estimator?: ClusteredEstimator;
  /** Multiply the variance by C/(C−1). Default false. */
  clusterCorrection?: boolean;
}

export interface ClusteredStderr {
  mean: number;
  /**
   * null with fewer than 2 clusters: one cluster's residuals sum to zero, so every estimator here returns
   * a number (0.00175 against a naive 0.0272 in one case) that means nothing; `note` says so.
   */
  standardError: number | null;
  /** Why `standardError` is null. */
  note?: string;
  /** The stderr that treats items as independent (lm-eval's), for comparison. */
  naiveStandardError: number;
  clusterCount: number;
  estimator: ClusteredEstimator;
  clusterCorrection: boolean;
}

export function clusteredStandardError(
  scores: ArrayLike<number>,
  clusters: ArrayLike<string | number>,
  options: ClusteredStderrOptions = {},
): ClusteredStderr {
  const where = 'clusteredStandardError';
  requireSameLength(where, scores, clusters, 'scores and clusters');
  requireFiniteValues(where, 'scores', scores, 2);
  const estimator = options.estimator ?? 'miller';
  const clusterCorrection = options.clusterCorrection ?? false;
  const n = scores.length;
  const average = mean(scores);
  const residualSums = new Map<string | number, number>();
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const residual = scores[i] - average;
    squares += residual * residual;
    residualSums.set(clusters[i], (residualSums.get(clusters[i]) ?? 0) + residual);
  }
  const clusterCount = residualSums.size;
  if (clusterCorrection && clusterCount < 2)
    throw badArgument(where, 'the C/(C−1) correction needs at least 2 clusters');
  if (clusterCount < 2)
    return {
      mean: average,
      standardError: null,
      note: `undefined with ${clusterCount} cluster: the between-cluster variance needs at least 2 clusters`,
      naiveStandardError: meanStderr(scores),
      clusterCount,
      estimator,
      clusterCorrection,
    };
  let clusterSquares = 0;
  for (const sum of residualSums.values()) clusterSquares += sum * sum;
  // Σ_c (Σ eᵢ)² = Σ eᵢ² + Σ_c Σ_{i≠j} eᵢeⱼ, so the off-diagonal part is the difference.
  let variance =
    estimator === 'miller'
      ? squares / (n * (n - 1)) + (clusterSquares - squares) / (n * n)
      : clusterSquares / (n * n);
  if (clusterCorrection) variance *= clusterCount / (clusterCount - 1);
  return {
    mean: average,
    standardError: Math.sqrt(Math.max(0, variance)),
    naiveStandardError: meanStderr(scores),
    clusterCount,
    estimator,
    clusterCorrection,
  };
}
