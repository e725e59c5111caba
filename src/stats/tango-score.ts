/**
 * Tango's score test and interval for the difference of two paired proportions (Tango 1998, "Equivalence
 * test and confidence interval for the difference in proportions for the paired-sample design", Stat Med
 * 17:891–908; the interval is also Agresti & Min 2005's "score" interval and R's PropCIs::scoreci.mp).
 *
 * With n pairs, n01 of them right under A and wrong under B and n10 the reverse, the difference is
 * θ = p_B − p_A, estimated by (n10 − n01)/n. Under H₀ θ = θ₀ the score statistic is
 *
 *   Z(θ₀) = (n10 − n01 − nθ₀) / √(n·(2q̃ + θ₀(1 − θ₀))),
 *
 * where q̃ is the maximum-likelihood estimate of P(A right, B wrong) restricted to θ = θ₀, the positive root
 * of 2n·q² + (−n01 − n10 + (2n − n10 + n01)θ₀)·q − n01·θ₀(1 − θ₀) = 0 for θ₀ ≥ 0 (θ₀ < 0 by the symmetry
 * Z(n01, n10, θ₀) = −Z(n10, n01, −θ₀)). At θ₀ = 0 it is McNemar's z, (n10 − n01)/√(n01 + n10). The interval
 * inverts the test: {θ₀ : |Z(θ₀)| ≤ z}, so it never leaves [−1, 1] and does not collapse to a point when
 * no pair is discordant. Uncorrected, it is a two-sided interval only: near one-way flips one limit alone
 * misses up to 0.053 (n = 500, θ = −0.008, 1% of the pairs discordant, exact enumeration) where a
 * one-sided 97.5% bound would miss 0.025. With the correction of one pair below, the limits are one-sided
 * bounds (that limit misses 0.0237 at most over n = 100–500 near one-way flips; tango-score.test.ts).
 *
 * `continuity` c shifts the numerator towards H₀ by c (in counts). The gate uses c = 1: with it the exact
 * size of the one-sided 5% test (enumerating the trinomial of the flip counts) is at most 0.0499 over
 * n = 2…10,000, margins 0.0005…0.3 and every rate of discordant pairs, except 0.0502 with every pair
 * discordant at n ≥ 5,000 and margin 0.3, where the correction no longer matters and only the normal
 * approximation does (docs/statistics.md). Uncorrected, the size reaches 0.063 or more at small n; with
 * c = ½, 0.062.
 */
import type { Alternative } from './alternative.js';
import { normalCdf, normalQuantile, normalSf } from './distributions.js';
import type { Interval } from './proportion-interval.js';
import { badArgument, requireNonNegativeInteger, requireProbability } from './validate.js';

export interface PairedProportionTable {
  /** Pairs. */
  n: number;
  /** Pairs right under A and wrong under B. */
  n01: number;
  /** Pairs wrong under A and right under B. */
  n10: number;
}

export interface TangoOptions {
  /** Continuity correction in counts, moving the numerator towards H₀. Default 0. */
  continuity?: number;
}

function check(where: string, table: PairedProportionTable, continuity: number): void {
  requireNonNegativeInteger(where, 'n01', table.n01);
  requireNonNegativeInteger(where, 'n10', table.n10);
  if (!(Number.isInteger(table.n) && table.n >= 1 && table.n01 + table.n10 <= table.n))
    throw badArgument(
      where,
      `n must be an integer ≥ n01 + n10 = ${table.n01 + table.n10} and ≥ 1, got ${table.n}`,
    );
  if (!(continuity >= 0 && Number.isFinite(continuity)))
    throw badArgument(where, `continuity must be a non-negative number, got ${continuity}`);
}

/** Restricted MLE of P(A right, B wrong) under θ = θ₀ ≥ 0. */
function restrictedRightToWrong(n01: number, n10: number, n: number, theta0: number): number {
  const a = 2 * n;
  const b = -n01 - n10 + (2 * n - n10 + n01) * theta0;
  const c = -n01 * theta0 * (1 - theta0);
  // c ≤ 0 ≤ a: the roots have opposite signs and the positive one is the MLE. Written to avoid the
  // cancellation of −b + √(b² − 4ac) when b > 0.
  const root = Math.sqrt(Math.max(0, b * b - 4 * a * c));
  return b > 0 ? (-2 * c) / (b + root) : (root - b) / (2 * a);
}

/**
 * Z(θ₀) with the numerator n10 − n01 − nθ₀ + `shift` (a signed continuity shift, in counts). ±∞ when the
 * null variance is 0 and the numerator is not.
 */
function shiftedScore(n01: number, n10: number, n: number, theta0: number, shift: number): number {
  if (theta0 < 0) return -shiftedScore(n10, n01, n, -theta0, -shift);
  const q = restrictedRightToWrong(n01, n10, n, theta0);
  const variance = n * (2 * q + theta0 * (1 - theta0));
  const numerator = n10 - n01 - n * theta0 + shift;
  if (!(variance > 0)) return numerator > 0 ? Infinity : numerator < 0 ? -Infinity : 0;
  return numerator / Math.sqrt(variance);
}

/** Tango's score statistic Z(θ₀), without continuity correction. */
export function tangoScoreStatistic(table: PairedProportionTable, theta0: number): number {
  check('tangoScoreStatistic', table, 0);
  if (!(theta0 > -1 && theta0 < 1))
    throw badArgument('tangoScoreStatistic', `theta0 must be in (−1, 1), got ${theta0}`);
  return shiftedScore(table.n01, table.n10, table.n, theta0, 0);
}

export interface TangoTestResult {
  z: number;
  pValue: number;
  alternative: Alternative;
  theta0: number;
  continuity: number;
}

/**
 * Score test of H₀ θ = θ₀ against `alternative` (`greater`: θ > θ₀, the non-inferiority test when
 * θ₀ = −margin; `less`: θ < θ₀).
 */
export function tangoScoreTest(
  table: PairedProportionTable,
  theta0: number,
  options: TangoOptions & { alternative?: Alternative } = {},
): TangoTestResult {
  const where = 'tangoScoreTest';
  const continuity = options.continuity ?? 0;
  const alternative = options.alternative ?? 'two-sided';
  check(where, table, continuity);
  if (!(theta0 > -1 && theta0 < 1)) throw badArgument(where, `theta0 must be in (−1, 1), got ${theta0}`);
  const { n01, n10, n } = table;
  if (alternative === 'greater') {
    const z = shiftedScore(n01, n10, n, theta0, -continuity);
    return { z, pValue: normalSf(z), alternative, theta0, continuity };
  }
  if (alternative === 'less') {
    const z = shiftedScore(n01, n10, n, theta0, continuity);
    return { z, pValue: normalCdf(z), alternative, theta0, continuity };
  }
  const raw = n10 - n01 - n * theta0;
  const shift = raw > 0 ? -Math.min(continuity, raw) : Math.min(continuity, -raw);
  const z = shiftedScore(n01, n10, n, theta0, shift);
  return { z, pValue: Math.min(1, 2 * normalSf(Math.abs(z))), alternative, theta0, continuity };
}

/** Bisection tolerance of the interval's limits. */
const TOLERANCE = 1e-12;

/**
 * The θ₀ in [−1, 1] where the decreasing function f crosses 0 (f > 0 below it), by bisection; the
 * bracket's end when f keeps one sign.
 */
function crossing(f: (theta0: number) => number): number {
  let low = -1;
  let high = 1;
  // The statistic is undefined at ±1 exactly; probe just inside.
  const inside = 1 - 1e-15;
  if (f(-inside) <= 0) return -1;
  if (f(inside) >= 0) return 1;
  while (high - low > TOLERANCE) {
    const middle = (low + high) / 2;
    if (f(middle) > 0) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

export interface TangoInterval extends Interval {
  confidence: number;
  continuity: number;
  method: 'tango-score';
}

/**
 * Two-sided `confidence` interval of θ = p_B − p_A: the θ₀ that the score test does not reject. Without a
 * continuity correction its limits are not one-sided (1 + confidence)/2 bounds (see the file header);
 * one-sided use (the gate) goes through the corrected test.
 */
export function tangoScoreInterval(
  table: PairedProportionTable,
  options: TangoOptions & { confidence?: number } = {},
): TangoInterval {
  const where = 'tangoScoreInterval';
  const confidence = options.confidence ?? 0.95;
  const continuity = options.continuity ?? 0;
  check(where, table, continuity);
  requireProbability(where, 'confidence', confidence);
  const z = normalQuantile(0.5 + confidence / 2);
  const { n01, n10, n } = table;
  const low = crossing((theta0) => shiftedScore(n01, n10, n, theta0, -continuity) - z);
  const high = crossing((theta0) => shiftedScore(n01, n10, n, theta0, continuity) + z);
  return { low, high, confidence, continuity, method: 'tango-score' };
}

/**
 * Per-pair variance of n10 − n01 under H₀ θ = θ₀ at the restricted estimate, 2q̃ + θ₀(1 − θ₀): the
 * denominator of Z(θ₀) squared, over n. Sample-size formulas need it.
 */
export function tangoNullVariance(table: PairedProportionTable, theta0: number): number {
  check('tangoNullVariance', table, 0);
  if (!(theta0 > -1 && theta0 < 1))
    throw badArgument('tangoNullVariance', `theta0 must be in (−1, 1), got ${theta0}`);
  const [n01, n10, theta] = theta0 < 0 ? [table.n10, table.n01, -theta0] : [table.n01, table.n10, theta0];
  return 2 * restrictedRightToWrong(n01, n10, table.n, theta) + theta * (1 - theta);
}
