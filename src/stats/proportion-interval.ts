/**
 * Confidence intervals for a binomial proportion k/n (accuracy over n items scored 0/1).
 *
 * Wilson is the default for accuracies: it keeps close to nominal coverage at small n and near 0 or 1,
 * where the Wald interval p̂ ± z·√(p̂(1−p̂)/n) collapses to zero width. Clopper-Pearson is exact
 * (conservative). The formulas follow SciPy's `binomtest(k, n).proportion_ci` (Newcombe 1998), including
 * its exact endpoints 0 at k = 0 and 1 at k = n.
 */
import { betaQuantile, normalQuantile } from './distributions.js';
import { badArgument, requireNonNegativeInteger, requireProbability } from './validate.js';

export type ProportionIntervalMethod = 'wilson' | 'wilson-cc' | 'clopper-pearson' | 'wald';

export interface Interval {
  low: number;
  high: number;
}

export interface ProportionInterval extends Interval {
  method: ProportionIntervalMethod;
  confidence: number;
  estimate: number;
}

/** Two-sided confidence interval for k successes out of n. */
export function proportionConfidenceInterval(
  k: number,
  n: number,
  options: { confidence?: number; method?: ProportionIntervalMethod } = {},
): ProportionInterval {
  const where = 'proportionConfidenceInterval';
  const confidence = options.confidence ?? 0.95;
  const method = options.method ?? 'wilson';
  requireNonNegativeInteger(where, 'k', k);
  requireNonNegativeInteger(where, 'n', n);
  if (n === 0) throw badArgument(where, 'n must be at least 1');
  if (k > n) throw badArgument(where, `k (${k}) cannot exceed n (${n})`);
  requireProbability(where, 'confidence', confidence);
  const interval = computeInterval(k, n, confidence, method);
  return { method, confidence, estimate: k / n, ...interval };
}

function computeInterval(
  k: number,
  n: number,
  confidence: number,
  method: ProportionIntervalMethod,
): Interval {
  const z = normalQuantile(0.5 + 0.5 * confidence);
  const p = k / n;
  const q = 1 - p;
  switch (method) {
    case 'wilson': {
      const denominator = 2 * (n + z * z);
      const center = (2 * n * p + z * z) / denominator;
      const delta = (z / denominator) * Math.sqrt(4 * n * p * q + z * z);
      return { low: k === 0 ? 0 : center - delta, high: k === n ? 1 : center + delta };
    }
    case 'wilson-cc': {
      const denominator = 2 * (n + z * z);
      const center = (2 * n * p + z * z) / denominator;
      const low =
        k === 0 ? 0 : center - (1 + z * Math.sqrt(z * z - 2 - 1 / n + 4 * p * (n * q + 1))) / denominator;
      const high =
        k === n ? 1 : center + (1 + z * Math.sqrt(z * z + 2 - 1 / n + 4 * p * (n * q - 1))) / denominator;
      return { low: Math.max(0, low), high: Math.min(1, high) };
    }
    case 'clopper-pearson': {
      const alpha = (1 - confidence) / 2;
      return {
        low: k === 0 ? 0 : betaQuantile(alpha, k, n - k + 1),
        high: k === n ? 1 : betaQuantile(1 - alpha, k + 1, n - k),
      };
    }
    case 'wald': {
      // Kept only to show what not to do: zero width at k = 0 and k = n, and bounds outside [0, 1].
      const half = z * Math.sqrt((p * q) / n);
      return { low: p - half, high: p + half };
    }
  }
}
