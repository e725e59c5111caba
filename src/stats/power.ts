/**
 * Power planning, Miller (2024) eq. 9–10. To detect a difference δ with two-sided level α and power 1−β,
 *   n = (z_{α/2} + z_β)² · (ω² + σ²_A/K + σ²_B/K) / δ²        (eq. 9)
 *   MDE = (z_{α/2} + z_β) · √((ω² + σ²_A/K + σ²_B/K) / n)    (eq. 10)
 * where ω² = Var(x_A − x_B) is the variance of the paired differences of per-question expected scores,
 * σ²_X the mean within-question variance of model X and K the samples per question.
 *
 * For accuracies (`accuracyPowerPlan`), each item is Bernoulli with variance p(1−p) and the paired
 * difference has ω² = σ²_A + σ²_B − 2ρσ_Aσ_B; an unpaired design (independent items per model) is ρ = 0.
 */
import { AssayError } from '../errors.js';
import { normalQuantile } from './distributions.js';
import { badArgument, requireProbability } from './validate.js';

export interface PowerInputs {
  /** Variance of paired differences ω². */
  omega2: number;
  /** Within-question variances (0 with one sample per question). */
  sigmaA2?: number;
  sigmaB2?: number;
  /** Samples per question. Default 1. */
  K?: number;
  alpha?: number;
  power?: number;
}

export interface SampleSize {
  zAlphaOverTwo: number;
  zBeta: number;
  /** Items needed, before rounding up. */
  nExact: number;
  /** Items needed. */
  n: number;
}

export function powerSampleSize(delta: number, inputs: PowerInputs): SampleSize {
  if (!(delta !== 0 && Number.isFinite(delta)))
    throw badArgument('powerSampleSize', `delta must be a non-zero number, got ${delta}`);
  const { zAlphaOverTwo, zBeta, variance } = prepare('powerSampleSize', inputs);
  const nExact = ((zAlphaOverTwo + zBeta) ** 2 * variance) / delta ** 2;
  return { zAlphaOverTwo, zBeta, nExact, n: Math.ceil(nExact) };
}

/** Smallest difference detectable with n items at the given level and power (eq. 10). */
export function minimumDetectableEffect(n: number, inputs: PowerInputs): number {
  if (!(n > 0)) throw badArgument('minimumDetectableEffect', `n must be positive, got ${n}`);
  const { zAlphaOverTwo, zBeta, variance } = prepare('minimumDetectableEffect', inputs);
  return (zAlphaOverTwo + zBeta) * Math.sqrt(variance / n);
}

function prepare(
  where: string,
  inputs: PowerInputs,
): { zAlphaOverTwo: number; zBeta: number; variance: number } {
  const alpha = inputs.alpha ?? 0.05;
  const power = inputs.power ?? 0.8;
  const K = inputs.K ?? 1;
  requireProbability(where, 'alpha', alpha);
  requireProbability(where, 'power', power);
  if (!(K >= 1)) throw badArgument(where, `K (samples per question) must be at least 1, got ${K}`);
  const parts = { omega2: inputs.omega2, sigmaA2: inputs.sigmaA2 ?? 0, sigmaB2: inputs.sigmaB2 ?? 0 };
  for (const [name, value] of Object.entries(parts)) {
    if (!(value >= 0 && Number.isFinite(value)))
      throw badArgument(where, `${name} must be a non-negative number, got ${value}`);
  }
  return {
    zAlphaOverTwo: normalQuantile(1 - alpha / 2),
    zBeta: normalQuantile(power),
    variance: parts.omega2 + parts.sigmaA2 / K + parts.sigmaB2 / K,
  };
}

export interface AccuracyPowerInputs {
  /** Baseline accuracy p_A. */
  baseline: number;
  /** Correlation of per-item correctness between the two models (paired design). Default 0.5. */
  correlation?: number;
  alpha?: number;
  power?: number;
}

/** Bernoulli variance of the paired difference at accuracies p_A and p_B with correlation ρ. */
export function accuracyDifferenceVariance(baseline: number, candidate: number, correlation: number): number {
  const varianceA = baseline * (1 - baseline);
  const varianceB = candidate * (1 - candidate);
  return Math.max(0, varianceA + varianceB - 2 * correlation * Math.sqrt(varianceA * varianceB));
}

/**
 * The correlations two 0/1 scores with means p and q can have (the Fréchet bounds of their joint
 * distribution, in Pearson terms): at most √min(p(1−q)/(q(1−p)), q(1−p)/(p(1−q))), at least
 * −√min(pq/((1−p)(1−q)), (1−p)(1−q)/(pq)). For 0.72 and 0.73 the largest is 0.975. Both are 0 when either
 * mean is 0 or 1 (a constant correlates with nothing).
 */
export function accuracyCorrelationBounds(p: number, q: number): { low: number; high: number } {
  requireProbability('accuracyCorrelationBounds', 'p', p, false);
  requireProbability('accuracyCorrelationBounds', 'q', q, false);
  if (p === 0 || p === 1 || q === 0 || q === 1) return { low: 0, high: 0 };
  const high = Math.sqrt(Math.min((p * (1 - q)) / (q * (1 - p)), (q * (1 - p)) / (p * (1 - q))));
  const low = -Math.sqrt(Math.min((p * q) / ((1 - p) * (1 - q)), ((1 - p) * (1 - q)) / (p * q)));
  return { low, high };
}

/** Why a correlation is infeasible between two accuracies, carried as the `cause` of the error. */
export interface InfeasibleCorrelation {
  baseline: number;
  candidate: number;
  correlation: number;
  low: number;
  high: number;
}

function requireFeasibleCorrelation(where: string, baseline: number, candidate: number, correlation: number) {
  // With a constant model the variance no longer depends on ρ, so there is nothing to check.
  if (baseline <= 0 || baseline >= 1 || candidate <= 0 || candidate >= 1) return;
  const { low, high } = accuracyCorrelationBounds(baseline, candidate);
  // A few ulps of slack so that the bound itself, printed and passed back, is accepted.
  const slack = 1e-12;
  if (correlation > high + slack || correlation < low - slack) {
    const cause: InfeasibleCorrelation = { baseline, candidate, correlation, low, high };
    throw new AssayError(
      'bad_option',
      `${where}: correlation ${correlation} is not possible between accuracies ${+baseline.toFixed(6)} and ${+candidate.toFixed(6)}: two 0/1 scores with these means correlate between ${low.toFixed(3)} and ${high.toFixed(3)} (max correlation ${high.toFixed(3)})`,
      { location: { field: 'correlation' }, cause },
    );
  }
}

/** Items needed to detect baseline → baseline + delta, paired (with the given correlation) and unpaired. */
export function accuracyPowerPlan(
  delta: number,
  inputs: AccuracyPowerInputs,
): { paired: SampleSize; unpaired: SampleSize } {
  const { baseline, correlation, alpha, power } = checkAccuracyInputs('accuracyPowerPlan', inputs);
  const candidate = baseline + delta;
  requireProbability('accuracyPowerPlan', 'baseline + delta', candidate, false);
  requireFeasibleCorrelation('accuracyPowerPlan', baseline, candidate, correlation);
  return {
    paired: powerSampleSize(delta, {
      omega2: accuracyDifferenceVariance(baseline, candidate, correlation),
      alpha,
      power,
    }),
    unpaired: powerSampleSize(delta, {
      omega2: accuracyDifferenceVariance(baseline, candidate, 0),
      alpha,
      power,
    }),
  };
}

export type EffectDirection = 'increase' | 'decrease';

export interface AccuracyMdeInputs extends AccuracyPowerInputs {
  /** `increase` (default): baseline → baseline + δ, up to 1; `decrease`: down to 0. */
  direction?: EffectDirection;
  /**
   * Use min(ρ, largest feasible) at each candidate accuracy instead of rejecting an infeasible ρ. For
   * callers with an assumed ρ (compare's fallback), not a user's.
   */
  clipCorrelation?: boolean;
}

export interface AccuracyMde {
  /** Smallest detectable change with the paired design; null when no change up to the headroom is. */
  paired: number | null;
  unpaired: number | null;
  direction: EffectDirection;
  /** The largest possible change: 1 − baseline for an increase, baseline for a decrease. */
  headroom: number;
}

/** Grid points scanned for the first sign change before bisecting. */
const MDE_GRID = 4096;
/** Width below which the bisection has converged. */
const MDE_TOLERANCE = 1e-12;

/**
 * Smallest change δ ∈ (0, headroom] that n items detect, paired and unpaired: the smallest root of
 * δ = (z_{α/2} + z_β)·√(ω²(δ)/n) (eq. 10), where ω² depends on δ through the candidate's Bernoulli
 * variance. The equation can have no root below the headroom (n too small: "not reachable", null) or
 * several, and fixed-point iteration from 0 oscillates or overshoots; so the first sign change of
 * f(δ) = δ − z·√(ω²(δ)/n) is located on a grid and bisected to 1e-12.
 */
export function accuracyMinimumDetectableEffect(n: number, inputs: AccuracyMdeInputs): AccuracyMde {
  const where = 'accuracyMinimumDetectableEffect';
  if (!(n > 0 && Number.isFinite(n))) throw badArgument(where, `n must be positive, got ${n}`);
  const correlation = inputs.correlation ?? 0.5;
  requireProbability(where, 'baseline', inputs.baseline, false);
  if (!(correlation >= -1 && correlation <= 1))
    throw badArgument(where, `correlation must be in [-1, 1], got ${correlation}`);
  const alpha = inputs.alpha ?? 0.05;
  const power = inputs.power ?? 0.8;
  requireProbability(where, 'alpha', alpha);
  requireProbability(where, 'power', power);
  const baseline = inputs.baseline;
  const direction = inputs.direction ?? 'increase';
  const sign = direction === 'increase' ? 1 : -1;
  const headroom = direction === 'increase' ? 1 - baseline : baseline;
  const z = normalQuantile(1 - alpha / 2) + normalQuantile(power);
  const candidateAt = (delta: number) => Math.min(1, Math.max(0, baseline + sign * delta));
  const rhoAt = (rho: number, delta: number) => {
    if (!inputs.clipCorrelation) return rho;
    const candidate = candidateAt(delta);
    if (baseline <= 0 || baseline >= 1 || candidate <= 0 || candidate >= 1) return rho;
    const { low, high } = accuracyCorrelationBounds(baseline, candidate);
    return Math.min(high, Math.max(low, rho));
  };
  const gap = (rho: number, delta: number) =>
    delta - z * Math.sqrt(accuracyDifferenceVariance(baseline, candidateAt(delta), rhoAt(rho, delta)) / n);
  const solve = (rho: number): number | null => {
    if (headroom <= 0) return null;
    let previous = 0;
    for (let step = 1; step <= MDE_GRID; step++) {
      const point = (headroom * step) / MDE_GRID;
      if (gap(rho, point) >= 0) {
        let low = previous;
        let high = point;
        for (let iteration = 0; iteration < 200 && high - low > MDE_TOLERANCE; iteration++) {
          const middle = (low + high) / 2;
          if (gap(rho, middle) >= 0) high = middle;
          else low = middle;
        }
        if (high - low > 1e-9)
          throw badArgument(where, `the MDE did not converge (bracket [${low}, ${high}])`);
        return high;
      }
      previous = point;
    }
    return null;
  };
  const paired = solve(correlation);
  if (paired !== null && !inputs.clipCorrelation)
    requireFeasibleCorrelation(where, baseline, candidateAt(paired), correlation);
  return { paired, unpaired: solve(0), direction, headroom };
}

function checkAccuracyInputs(where: string, inputs: AccuracyPowerInputs): Required<AccuracyPowerInputs> {
  const correlation = inputs.correlation ?? 0.5;
  requireProbability(where, 'baseline', inputs.baseline);
  if (!(correlation >= -1 && correlation <= 1))
    throw badArgument(where, `correlation must be in [-1, 1], got ${correlation}`);
  return { baseline: inputs.baseline, correlation, alpha: inputs.alpha ?? 0.05, power: inputs.power ?? 0.8 };
}
