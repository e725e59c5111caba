/**
 * Percentile and BCa (bias-corrected and accelerated) bootstrap intervals, following
 * `scipy.stats.bootstrap` (Efron & Tibshirani 1993, ch. 14): the bias correction z₀ from the share of
 * replicates below the observed statistic, the acceleration â from the jackknife, and percentiles taken
 * with NumPy's default linear interpolation.
 */
import { normalCdf, normalQuantile } from './distributions.js';
import type { Interval } from './proportion-interval.js';
import { badArgument, requireProbability } from './validate.js';

export type BootstrapIntervalMethod = 'percentile' | 'bca';

export interface BootstrapInterval extends Interval {
  method: BootstrapIntervalMethod;
  confidence: number;
  /** The percentile levels actually read off the replicates (adjusted ones for BCa). */
  levels: [number, number];
}

export interface BcaAcceleration {
  acceleration: number;
  /** Leave-one-out values of the statistic. */
  jackknifeValues: Float64Array;
}

/**
 * Jackknife acceleration â = Σ(θ̄₍.₎ − θ₍ᵢ₎)³ / (6 · (Σ(θ̄₍.₎ − θ₍ᵢ₎)²)^1.5). Without `statistic` the
 * statistic is the mean, whose leave-one-out values have the closed form (Σx − xᵢ)/(n − 1), O(n) in all;
 * a general statistic costs n evaluations on n − 1 items.
 */
export function bcaAcceleration<T = number>(
  items: readonly T[],
  statistic?: (items: readonly T[]) => number,
): BcaAcceleration {
  const n = items.length;
  if (n < 2) throw badArgument('bcaAcceleration', `needs at least 2 items, got ${n}`);
  const jackknifeValues = new Float64Array(n);
  if (statistic === undefined) {
    const numbers = items as unknown as readonly number[];
    let sum = 0;
    for (let i = 0; i < n; i++) sum += numbers[i];
    for (let i = 0; i < n; i++) jackknifeValues[i] = (sum - numbers[i]) / (n - 1);
  } else {
    const leaveOneOut: T[] = items.slice(1);
    for (let i = 0; i < n; i++) {
      if (i > 0) leaveOneOut[i - 1] = items[i - 1];
      jackknifeValues[i] = statistic(leaveOneOut);
    }
  }
  let sum = 0;
  for (let i = 0; i < n; i++) sum += jackknifeValues[i];
  const center = sum / n;
  let cubes = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const deviation = center - jackknifeValues[i];
    cubes += deviation ** 3;
    squares += deviation ** 2;
  }
  // All leave-one-out values equal: no skewness to correct for.
  const acceleration = squares === 0 ? 0 : cubes / (6 * squares ** 1.5);
  return { acceleration, jackknifeValues };
}

/** Bias correction z₀ = Φ⁻¹((#{θ*_b < θ̂} + #{θ*_b ≤ θ̂}) / 2B), SciPy's mid-rank convention for ties. */
export function bcaBiasCorrection(replicates: ArrayLike<number>, observed: number): number {
  let below = 0;
  let atOrBelow = 0;
  for (let b = 0; b < replicates.length; b++) {
    if (replicates[b] < observed) below++;
    if (replicates[b] <= observed) atOrBelow++;
  }
  return normalQuantile((below + atOrBelow) / (2 * replicates.length));
}

/** BCa percentile levels α₁ = Φ(z₀ + (z₀+z_α)/(1 − a(z₀+z_α))) and α₂ likewise with z_{1−α}. */
export function bcaAdjustedPercentiles(
  z0: number,
  acceleration: number,
  confidence: number,
): { alpha1: number; alpha2: number } {
  const zLow = normalQuantile((1 - confidence) / 2);
  const zHigh = -zLow;
  const low = z0 + zLow;
  const high = z0 + zHigh;
  return {
    alpha1: normalCdf(z0 + low / (1 - acceleration * low)),
    alpha2: normalCdf(z0 + high / (1 - acceleration * high)),
  };
}

export interface BootstrapIntervalOptions {
  method?: BootstrapIntervalMethod;
  confidence?: number;
  /** The statistic on the original sample; required for BCa. */
  observed?: number;
  /** Jackknife acceleration (`bcaAcceleration(...).acceleration`); required for BCa. */
  acceleration?: number;
}

export function bootstrapInterval(
  replicates: ArrayLike<number>,
  options: BootstrapIntervalOptions = {},
): BootstrapInterval {
  const where = 'bootstrapInterval';
  const method = options.method ?? 'percentile';
  const confidence = options.confidence ?? 0.95;
  requireProbability(where, 'confidence', confidence);
  if (replicates.length < 2)
    throw badArgument(where, `needs at least 2 replicates, got ${replicates.length}`);
  const sorted = Float64Array.from(replicates).sort();
  if (Number.isNaN(sorted[sorted.length - 1])) throw badArgument(where, 'a bootstrap replicate is NaN');
  let levels: [number, number] = [(1 - confidence) / 2, (1 + confidence) / 2];
  if (method === 'bca') {
    if (options.observed === undefined || options.acceleration === undefined) {
      throw badArgument(where, "method 'bca' needs `observed` and `acceleration`");
    }
    const z0 = bcaBiasCorrection(sorted, options.observed);
    const { alpha1, alpha2 } = bcaAdjustedPercentiles(z0, options.acceleration, confidence);
    // When every replicate sits on one side of the observed value z₀ is infinite and the levels NaN, as
    // in SciPy (which also warns): the interval is reported as [NaN, NaN] rather than made up.
    levels = [alpha1, alpha2];
  }
  return {
    method,
    confidence,
    levels,
    low: percentileOfSorted(sorted, levels[0]),
    high: percentileOfSorted(sorted, levels[1]),
  };
}

/**
 * NumPy's default (`method='linear'`, Hyndman & Fan type 7) percentile of ascending values, with `q` in
 * [0, 1]; NaN for a NaN level (a degenerate BCa correction).
 */
export function percentileOfSorted(sorted: ArrayLike<number>, q: number): number {
  if (Number.isNaN(q)) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.min(lower + 1, sorted.length - 1);
  const t = position - lower;
  const a = sorted[lower];
  const b = sorted[upper];
  // NumPy's `_lerp` interpolates from whichever end is nearer, which keeps monotonicity when t ≥ 0.5.
  return t >= 0.5 ? b - (b - a) * (1 - t) : a + (b - a) * t;
}
