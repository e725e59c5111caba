/**
 * Paired sign-flip permutation test of the mean difference. Under H₀ (no difference between A and B)
 * each paired difference is as likely to have either sign, so the null distribution of mean(d) is that of
 * mean(±dᵢ) over sign patterns.
 *
 * - Exact for n ≤ `exactMaxN` (default 20, ≈ 1M patterns): every pattern, identity included, as
 *   `scipy.stats.permutation_test((d,), np.mean, permutation_type='samples', n_resamples=inf)`.
 * - Otherwise Monte Carlo with `resamples` seeded draws and p = (1 + #{as extreme}) / (1 + B)
 *   (Phipson & Smyth 2010), which counts the observed pattern and so never returns p = 0.
 *
 * Two-sided p is SciPy's, 2·min(P(T ≤ t), P(T ≥ t)) capped at 1; `pValueAbsolute` is the other common
 * convention, P(|T| ≥ |t|). Comparisons allow a tolerance for rounding relative to the data's scale (see
 * `counter`), so patterns that equal the observed mean in exact arithmetic count as "as extreme".
 */
import type { Alternative } from './alternative.js';
import { FastRandom } from './fast-random.js';
import { badArgument, requireFiniteValues } from './validate.js';

export interface PermutationTestOptions {
  alternative?: Alternative;
  /** Largest n tested exhaustively. Default 20. */
  exactMaxN?: number;
  /** Monte Carlo resamples. Default 10,000. */
  resamples?: number;
  seed?: number;
}

export interface PermutationTestResult {
  /** mean(d). */
  observed: number;
  pValue: number;
  /** Two-sided P(|T| ≥ |t|); equal to `pValue` for one-sided alternatives. */
  pValueAbsolute: number;
  alternative: Alternative;
  method: 'exact' | 'monte-carlo';
  /** Sign patterns counted: 2ⁿ when exact, B when Monte Carlo. */
  patterns: number;
}

export function pairedPermutationTest(
  differences: ArrayLike<number>,
  options: PermutationTestOptions = {},
): PermutationTestResult {
  const where = 'pairedPermutationTest';
  requireFiniteValues(where, 'differences', differences, 1);
  const alternative = options.alternative ?? 'two-sided';
  const exactMaxN = options.exactMaxN ?? 20;
  const resamples = options.resamples ?? 10_000;
  if (exactMaxN > 30) throw badArgument(where, `exactMaxN must be at most 30, got ${exactMaxN}`);
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw badArgument(where, `resamples must be a positive integer, got ${resamples}`);
  }
  const n = differences.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += differences[i];
  const observed = sum / n;
  const tally =
    n <= exactMaxN
      ? exactTally(differences, observed)
      : monteCarloTally(differences, observed, resamples, options.seed ?? 0);
  const adjustment = tally.exact ? 0 : 1;
  const share = (count: number) => (count + adjustment) / (tally.patterns + adjustment);
  const less = share(tally.atMost);
  const greater = share(tally.atLeast);
  const pValue =
    alternative === 'less'
      ? less
      : alternative === 'greater'
        ? greater
        : Math.min(1, 2 * Math.min(less, greater));
  return {
    observed,
    pValue,
    pValueAbsolute: alternative === 'two-sided' ? Math.min(1, share(tally.absoluteAtLeast)) : pValue,
    alternative,
    method: tally.exact ? 'exact' : 'monte-carlo',
    patterns: tally.patterns,
  };
}

interface Tally {
  exact: boolean;
  patterns: number;
  atMost: number;
  atLeast: number;
  absoluteAtLeast: number;
}

/**
 * Counts patterns as extreme as `observed`, within a tolerance for rounding. A pattern's mean carries a
 * rounding error up to about ε·Σ|dᵢ| (each of its n additions rounds at the scale of the partial sums),
 * which has nothing to do with |observed|: with d = [0.1, 0.2, −0.3] the observed mean is 1.9e-17 and the
 * identity pattern, summed in another order, 9.3e-18. So the tolerance is relative to the data's scale,
 * 8·ε·Σ|dᵢ|, and never below SciPy's 100·ε·|observed|.
 */
function counter(
  observed: number,
  absoluteSum: number,
): {
  add: (mean: number) => void;
  tally: Omit<Tally, 'exact' | 'patterns'>;
} {
  const gamma = Math.max(Math.abs(observed * 100 * Number.EPSILON), 8 * Number.EPSILON * absoluteSum);
  const absoluteObserved = Math.abs(observed);
  const tally = { atMost: 0, atLeast: 0, absoluteAtLeast: 0 };
  return {
    tally,
    add(mean: number) {
      if (mean <= observed + gamma) tally.atMost++;
      if (mean >= observed - gamma) tally.atLeast++;
      if (Math.abs(mean) >= absoluteObserved - gamma) tally.absoluteAtLeast++;
    },
  };
}

/**
 * All 2ⁿ patterns, meet-in-the-middle: the sums over each half of the items are tabulated once, so each
 * pattern costs one addition and carries at most a few roundings (a running Gray-code sum would drift).
 */
function exactTally(differences: ArrayLike<number>, observed: number): Tally {
  const n = differences.length;
  const half = Math.floor(n / 2);
  const low = halfSums(differences, 0, half);
  const high = halfSums(differences, half, n);
  const { add, tally } = counter(observed, absoluteSum(differences));
  for (let a = 0; a < low.length; a++) for (let b = 0; b < high.length; b++) add((low[a] + high[b]) / n);
  return { exact: true, patterns: 2 ** n, ...tally };
}

function absoluteSum(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += Math.abs(values[i]);
  return sum;
}

function halfSums(values: ArrayLike<number>, from: number, to: number): Float64Array {
  const size = to - from;
  const sums = new Float64Array(2 ** size);
  // Bit j set means item from+j keeps its sign, clear means flipped.
  for (let mask = 0; mask < sums.length; mask++) {
    let sum = 0;
    for (let j = 0; j < size; j++) sum += mask & (1 << j) ? values[from + j] : -values[from + j];
    sums[mask] = sum;
  }
  return sums;
}

function monteCarloTally(
  differences: ArrayLike<number>,
  observed: number,
  resamples: number,
  seed: number,
): Tally {
  const n = differences.length;
  const random = new FastRandom(seed);
  const { add, tally } = counter(observed, absoluteSum(differences));
  // Items with the same |d| are interchangeable: a group of m contributes |d|·(2·Binomial(m, ½) − m),
  // i.e. |d|·(2·popcount(m random bits) − m). For 0/1 score differences that is one group, so a resample
  // of 100,000 pairs costs ~3,000 32-bit draws instead of 100,000.
  // Differences whose |d| occurs once take one bit each from a shared 32-bit draw.
  const groups = magnitudeGroups(differences);
  const singles = Float64Array.from(
    groups.filter((group) => group.size === 1).map((group) => group.magnitude),
  );
  const shared = groups.filter((group) => group.size > 1);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (const { magnitude, size } of shared) {
      let positives = 0;
      let remaining = size;
      for (; remaining >= 32; remaining -= 32) positives += popcount(random.nextUint32());
      if (remaining > 0) positives += popcount(random.nextUint32() >>> (32 - remaining));
      sum += magnitude * (2 * positives - size);
    }
    let word = 0;
    for (let i = 0; i < singles.length; i++) {
      if ((i & 31) === 0) word = random.nextUint32();
      sum += word & 1 ? singles[i] : -singles[i];
      word >>>= 1;
    }
    add(sum / n);
  }
  return { exact: false, patterns: resamples, ...tally };
}

function magnitudeGroups(values: ArrayLike<number>): Array<{ magnitude: number; size: number }> {
  const sizes = new Map<number, number>();
  for (let i = 0; i < values.length; i++) {
    const magnitude = Math.abs(values[i]);
    if (magnitude !== 0) sizes.set(magnitude, (sizes.get(magnitude) ?? 0) + 1);
  }
  return [...sizes].map(([magnitude, size]) => ({ magnitude, size }));
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
