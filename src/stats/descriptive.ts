/**
 * Means, variances and standard errors of one sample, computed as lm-eval computes them
 * (`lm_eval/api/metrics.py`: `mean`, `sample_stddev`, `mean_stderr`): plain left-to-right sums and the
 * n − 1 denominator, so `acc_stderr` matches lm-eval's to the last few ulps.
 */
import { badArgument, requireSameLength } from './validate.js';

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) throw badArgument('mean', 'needs at least one value');
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

/** Variance with the n − 1 (Bessel) denominator; NaN for fewer than two values. */
export function sampleVariance(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 2) return Number.NaN;
  const mu = mean(values);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (values[i] - mu) ** 2;
  return sum / (n - 1);
}

/** lm-eval's `sample_stddev`: √(Σ(x − x̄)² / (n − 1)); NaN for fewer than two values. */
export function sampleStddev(values: ArrayLike<number>): number {
  return Math.sqrt(sampleVariance(values));
}

/** lm-eval's `mean_stderr`: sample_stddev / √n; NaN for fewer than two values (lm-eval reports "N/A"). */
export function meanStderr(values: ArrayLike<number>): number {
  return sampleStddev(values) / Math.sqrt(values.length);
}

/** Sample covariance with the n − 1 denominator. */
export function sampleCovariance(x: ArrayLike<number>, y: ArrayLike<number>): number {
  requireSameLength('sampleCovariance', x, y, 'x and y');
  const n = x.length;
  if (n < 2) return Number.NaN;
  const mx = mean(x);
  const my = mean(y);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (x[i] - mx) * (y[i] - my);
  return sum / (n - 1);
}

/** Pearson correlation; NaN when either sample is constant (the correlation is undefined there). */
export function pearsonCorrelation(x: ArrayLike<number>, y: ArrayLike<number>): number {
  requireSameLength('pearsonCorrelation', x, y, 'x and y');
  const n = x.length;
  if (n < 2) return Number.NaN;
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return Number.NaN;
  return sxy / Math.sqrt(sxx * syy);
}

/** True when every value is exactly 0 or 1 (accuracy-like scores). */
export function isBinary(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] !== 0 && values[i] !== 1) return false;
  return values.length > 0;
}

/**
 * √(Σ(x − x̄)²/n)/√n, the plug-in stderr with the n denominator. It is what an ideal (B → ∞) bootstrap of
 * the mean converges to, and for 0/1 scores the Bernoulli shortcut √(p(1−p)/n); lm-eval's `mean_stderr`
 * uses n − 1 instead, so this is smaller by √((n−1)/n).
 */
export function plugInStderr(values: ArrayLike<number>): number {
  const n = values.length;
  const mu = mean(values);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (values[i] - mu) ** 2;
  return Math.sqrt(sum / n / n);
}
