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

/** Items needed to detect baseline → baseline + delta, paired (with the given correlation) and unpaired. */
export function accuracyPowerPlan(
  delta: number,
  inputs: AccuracyPowerInputs,
): { paired: SampleSize; unpaired: SampleSize } {
  const { baseline, correlation, alpha, power } = checkAccuracyInputs('accuracyPowerPlan', inputs);
  const candidate = baseline + delta;
  requireProbability('accuracyPowerPlan', 'baseline + delta', candidate, false);
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

/**
 * Smallest improvement over `baseline` detectable with n items, paired and unpaired. The variance depends
 * on the candidate accuracy baseline + MDE, so eq. 10 is solved by fixed-point iteration from δ = 0.
 */
export function accuracyMinimumDetectableEffect(
  n: number,
  inputs: AccuracyPowerInputs,
): { paired: number; unpaired: number } {
  const { baseline, correlation, alpha, power } = checkAccuracyInputs(
    'accuracyMinimumDetectableEffect',
    inputs,
  );
  const solve = (rho: number): number => {
    let delta = 0;
    for (let iteration = 0; iteration < 100; iteration++) {
      const candidate = Math.min(1, baseline + delta);
      const next = minimumDetectableEffect(n, {
        omega2: accuracyDifferenceVariance(baseline, candidate, rho),
        alpha,
        power,
      });
      if (Math.abs(next - delta) < 1e-12) return next;
      delta = next;
    }
    return delta;
  };
  return { paired: solve(correlation), unpaired: solve(0) };
}

function checkAccuracyInputs(where: string, inputs: AccuracyPowerInputs): Required<AccuracyPowerInputs> {
  const correlation = inputs.correlation ?? 0.5;
  requireProbability(where, 'baseline', inputs.baseline);
  if (!(correlation >= -1 && correlation <= 1))
    throw badArgument(where, `correlation must be in [-1, 1], got ${correlation}`);
  return { baseline: inputs.baseline, correlation, alpha: inputs.alpha ?? 0.05, power: inputs.power ?? 0.8 };
}
