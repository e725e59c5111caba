/**
 * The per-task test behind `assay gate`: is B non-inferior to A within the margin m, or worse than it?
 * Everything is oriented so that positive = better (lower-is-better metrics are flipped). Three methods,
 * chosen by the scores:
 *
 * - `tango-score`, for 0/1 scores: Tango's (1998) score test for matched pairs at θ₀ = −m with a
 *   continuity correction of one pair, whose exact size stays at 0.05 or below (0.0502 at worst, with
 *   every pair discordant) at every n, margin and rate of discordant pairs we enumerated
 *   (stats/tango-score.ts). The bounds invert the same test, so "lower bound > −m" and "p < α" always
 *   agree. A paired t on 0/1 differences is not used: with no flips its variance is 0 and it "proved"
 *   non-inferiority from two identical items, and with one-way flips at the margin it passed 37% of
 *   regressions at n = 200.
 * - `betting`, for other scores when every score lies in [0, 1] (so every difference in [−1, 1]): the
 *   betting test for means of bounded values (stats/bounded-mean-test.ts, Waudby-Smith & Ramdas 2024),
 *   valid at every n and for every distribution of the differences in that range. The paired t it
 *   replaces cannot be calibrated on sparse differences (a re-run where a few items drop and the rest
 *   are identical): at a true drop equal to the margin it passed 0.200 of the time at n = 200 (margin
 *   0.005), 0.095 at n = 1,000 and 0.075 at n = 5,000. The price is power (docs/statistics.md).
 * - `paired-t`, for scores outside [0, 1]: no range is known, so no test valid at every n exists; the
 *   one-sided paired t with n − 1 degrees of freedom, named as such in the report, with its caveat.
 * - `constant-difference`, for other scores whose differences are all equal (zero variance, where the t
 *   is undefined): zero variance is not evidence. With every score in [0, 1] a distribution-free bound
 *   still decides once n is large enough: if the mean difference were ≤ −m, a difference ≥ x would have
 *   probability at most (1 − m)/(1 + x) (differences lie in [−1, 1]), so n equal differences x give
 *   p = ((1 − m)/(1 + x))ⁿ. For x = 0 and m = 0.005 that takes 598 items. Outside [0, 1] nothing bounds
 *   the differences and the verdict stays undecided. (The bound is the betting test's capital with the
 *   whole stake on every item; taking it only when all differences are equal leaves the size within the
 *   simulated limits, since n equal differences at a null mean have probability at most that p.)
 */
import { BoundedMeanTest } from '../../stats/bounded-mean-test.js';
import { isBinary, mean, sampleStddev } from '../../stats/descriptive.js';
import { normalQuantile, studentTCdf, studentTQuantile, studentTSf } from '../../stats/distributions.js';
import {
  type PairedProportionTable,
  tangoNullVariance,
  tangoScoreInterval,
  tangoScoreTest,
} from '../../stats/tango-score.js';

export type NonInferiorityMethod = 'tango-score' | 'betting' | 'paired-t' | 'constant-difference';

export const NON_INFERIORITY_METHODS: Record<NonInferiorityMethod, string> = {
  'tango-score': 'Tango score test for matched pairs, continuity correction 1',
  betting: 'betting test for the mean of scores in [0, 1] (Waudby-Smith & Ramdas 2024), valid at every n',
  'paired-t':
    'one-sided paired t (scores outside [0, 1]: no known range, so its size on sparse differences can exceed alpha)',
  'constant-difference': 'every difference equal: distribution-free bound for scores in [0, 1]',
};

/** Continuity correction of the Tango test, in pairs (see stats/tango-score.ts). */
const TANGO_CONTINUITY = 1;

export interface NonInferiorityOptions {
  /** The margin m ≥ 0, in metric units: H₀ of non-inferiority is "improvement ≤ −m". */
  margin: number;
  alpha: number;
  /** Power used to estimate the items an undecided task would need. */
  power: number;
  higherIsBetter: boolean;
  /**
   * Compute the p-values only, leaving the betting test's bounds and items-needed hint null: the
   * calibration simulations need nothing else, and the bounds cost a root search each.
   */
  pValuesOnly?: boolean;
}

export interface NonInferiority {
  method: NonInferiorityMethod;
  n: number;
  /** Mean oriented difference (B − A, or A − B for lower-is-better metrics). */
  improvement: number;
  /** Standard error of the mean difference, sd/√n, as measured. */
  standardError: number;
  /** One-sided (1 − α) bounds of the improvement, from the same test; null when nothing bounds it. */
  lowerBound: number | null;
  upperBound: number | null;
  /** p of H₀ improvement ≤ −m (non-inferiority): a small value passes. */
  pNonInferiority: number;
  /** p of H₀ improvement ≥ −m: a small value (after adjustment across tasks) fails. */
  pInferiority: number;
  /** Items that would decide with the given power if the true change were the observed one. */
  itemsNeeded: number | null;
}

/** Paired 0/1 scores, oriented: `rightToWrong` items got worse, `wrongToRight` better. */
export interface PairedProportionCounts {
  n: number;
  rightToWrong: number;
  wrongToRight: number;
}

/** Relative spread below which differences count as all equal (a few hundred ulps). */
const CONSTANT_TOLERANCE = 256 * Number.EPSILON;

const zOf = (probability: number) => normalQuantile(probability);

/** Tango's test from the flip counts alone. */
export function pairedProportionNonInferiority(
  counts: PairedProportionCounts,
  options: NonInferiorityOptions,
): NonInferiority {
  const { n, rightToWrong, wrongToRight } = counts;
  const { margin, alpha, power } = options;
  const improvement = (wrongToRight - rightToWrong) / n;
  const sd = Math.sqrt(Math.max(0, (wrongToRight + rightToWrong - n * improvement ** 2) / (n - 1)));
  const table: PairedProportionTable = { n, n01: rightToWrong, n10: wrongToRight };
  const bounds = tangoScoreInterval(table, { confidence: 1 - 2 * alpha, continuity: TANGO_CONTINUITY });
  let pNonInferiority: number;
  let pInferiority: number;
  if (margin >= 1) {
    // A 0/1 score cannot drop by more than 1: only "every item went from right to wrong" is a drop of 1.
    pNonInferiority = rightToWrong === n ? 1 : 0;
    pInferiority = 1;
  } else {
    const test = (alternative: 'greater' | 'less') =>
      tangoScoreTest(table, -margin, { alternative, continuity: TANGO_CONTINUITY }).pValue;
    pNonInferiority = test('greater');
    pInferiority = test('less');
  }
  // Sample size for the score test at the observed proportions (Nam 1997; Liu et al. 2002), with the
  // continuity correction c: the smallest n with n·d − c ≥ (z_{1−α}·σ₀ + z_power·σ₁)·√n, where d = |θ̂ + m|,
  // σ₀² is the null variance and σ₁² = p₀₁ + p₁₀ − θ̂²; a quadratic in √n.
  const distance = Math.abs(improvement + margin);
  let itemsNeeded: number | null = null;
  if (distance > 0 && margin < 1) {
    const nullSd = Math.sqrt(tangoNullVariance(table, -margin));
    const observedSd = Math.sqrt(Math.max(0, (rightToWrong + wrongToRight) / n - improvement ** 2));
    const spread = zOf(1 - alpha) * nullSd + zOf(power) * observedSd;
    const root = (spread + Math.sqrt(spread ** 2 + 4 * distance * TANGO_CONTINUITY)) / (2 * distance);
    itemsNeeded = Math.ceil(root ** 2);
  }
  return {
    method: 'tango-score',
    n,
    improvement,
    standardError: sd / Math.sqrt(n),
    lowerBound: bounds.low,
    upperBound: bounds.high,
    pNonInferiority,
    pInferiority,
    itemsNeeded,
  };
}

function pairedT(improvements: Float64Array, options: NonInferiorityOptions): NonInferiority {
  const { margin, alpha, power } = options;
  const n = improvements.length;
  const improvement = mean(improvements);
  const sd = sampleStddev(improvements);
  const standardError = sd / Math.sqrt(n);
  const t = (improvement + margin) / standardError;
  const critical = studentTQuantile(1 - alpha, n - 1);
  const distance = Math.abs(improvement + margin);
  return {
    method: 'paired-t',
    n,
    improvement,
    standardError,
    lowerBound: improvement - critical * standardError,
    upperBound: improvement + critical * standardError,
    pNonInferiority: studentTSf(t, n - 1),
    pInferiority: studentTCdf(t, n - 1),
    itemsNeeded: distance === 0 ? null : Math.ceil((((zOf(1 - alpha) + zOf(power)) * sd) / distance) ** 2),
  };
}

/** Differences in [−1, 1] (scores in [0, 1]): the betting test, its bounds and the items it would need. */
function betting(improvements: Float64Array, options: NonInferiorityOptions): NonInferiority {
  const { margin, alpha, power } = options;
  const n = improvements.length;
  const improvement = mean(improvements);
  const test = new BoundedMeanTest(improvements, { low: -1, high: 1, alpha });
  const full = options.pValuesOnly !== true;
  return {
    method: 'betting',
    n,
    improvement,
    standardError: sampleStddev(improvements) / Math.sqrt(n),
    lowerBound: full ? test.lowerBound() : null,
    upperBound: full ? test.upperBound() : null,
    pNonInferiority: test.pGreater(-margin),
    pInferiority: test.pLess(-margin),
    itemsNeeded: !full
      ? null
      : improvement > -margin
        ? test.itemsNeeded(-margin, 'greater', power)
        : improvement < -margin
          ? test.itemsNeeded(-margin, 'less', power)
          : null,
  };
}

/** Every difference equals `difference`: the bound of the file header, or no verdict at all. */
function constantDifference(
  difference: number,
  n: number,
  unitRange: boolean,
  options: NonInferiorityOptions,
): NonInferiority {
  const { margin, alpha } = options;
  const base = { method: 'constant-difference' as const, n, improvement: difference, standardError: 0 };
  if (!unitRange)
    return {
      ...base,
      lowerBound: null,
      upperBound: null,
      pNonInferiority: 1,
      pInferiority: 1,
      itemsNeeded: null,
    };
  const x = difference;
  const root = alpha ** (1 / n);
  const passRatio = (1 - margin) / (1 + x);
  const failRatio = (1 + margin) / (1 - x);
  const itemsFor = (ratio: number) =>
    ratio > 0 && ratio < 1 ? Math.floor(Math.log(alpha) / Math.log(ratio)) + 1 : null;
  return {
    ...base,
    lowerBound: Math.max(-1, (1 + x) * root - 1),
    upperBound: Math.min(1, 1 - (1 - x) * root),
    pNonInferiority: x === -1 ? 1 : Math.min(1, passRatio ** n),
    pInferiority: x === 1 ? 1 : Math.min(1, failRatio ** n),
    itemsNeeded: x > -margin ? itemsFor(passRatio) : x < -margin ? itemsFor(failRatio) : null,
  };
}

/** Non-inferiority of B against A on paired per-item scores. */
export function nonInferiority(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: NonInferiorityOptions,
): NonInferiority {
  const n = a.length;
  const sign = options.higherIsBetter ? 1 : -1;
  if (isBinary(a) && isBinary(b)) {
    let rightToWrong = 0;
    let wrongToRight = 0;
    for (let i = 0; i < n; i++) {
      const change = sign * (b[i] - a[i]);
      if (change < 0) rightToWrong++;
      else if (change > 0) wrongToRight++;
    }
    return pairedProportionNonInferiority({ n, rightToWrong, wrongToRight }, options);
  }
  const improvements = Float64Array.from({ length: n }, (_, i) => sign * (b[i] - a[i]));
  let low = Infinity;
  let high = -Infinity;
  let scale = 0;
  let unitRange = true;
  for (let i = 0; i < n; i++) {
    low = Math.min(low, improvements[i]);
    high = Math.max(high, improvements[i]);
    scale = Math.max(scale, Math.abs(a[i]), Math.abs(b[i]));
    if (!(a[i] >= 0 && a[i] <= 1 && b[i] >= 0 && b[i] <= 1)) unitRange = false;
  }
  // Differences equal up to rounding (0.3 − 0.1 and 0.5 − 0.3 differ in the last bit) have a "variance"
  // of 1e-33 that would make any t enormous: they are treated as equal.
  if (high - low <= CONSTANT_TOLERANCE * scale)
    return constantDifference(mean(improvements), n, unitRange, options);
  return unitRange ? betting(improvements, options) : pairedT(improvements, options);
}
