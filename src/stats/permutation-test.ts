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
 *
 * With `confidence`, the interval of the mean difference that inverts the same test on the same sign
 * patterns: the δ for which the test of dᵢ − δ does not reject at 1 − confidence (two-sided, SciPy's rule).
 * A pattern flipping the items F counts as "at least as large" at δ exactly when δ ≥ t_F, the mean of the
 * dᵢ over F (Σ sᵢ(dᵢ − δ) ≥ Σ(dᵢ − δ) ⇔ 2Σ_F dᵢ ≤ 2|F|δ), so the limits are order statistics of the t_F
 * (Hartigan 1969). For δ = 0 it is the test itself, so the interval excludes 0 exactly when p < 1 − confidence
 * (up to rounding ties, which the test counts as extreme; the interval is then widened to 0). Valid, like
 * the test, when the differences are symmetric about their mean; it needs no normal approximation, so at
 * n = 10 it covers as promised where B − A ± 1.96·SE covered 0.918. Items with dᵢ = 0 flip too (they move
 * when δ ≠ 0); in Monte Carlo their signs come from a stream of their own, so the test's draws are unchanged.
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
  /** Also return the interval that inverts the test at this level (two-sided). */
  confidence?: number;
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
  /**
   * With `confidence`: the mean differences the test does not reject (±Infinity where no finite limit
   * exists: with n ≤ 5 no exact two-sided test at 5% rejects anything).
   */
  interval?: { low: number; high: number; confidence: number };
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
  const confidence = options.confidence;
  if (confidence !== undefined && !(confidence > 0 && confidence < 1))
    throw badArgument(where, `confidence must be in (0, 1), got ${confidence}`);
  const withInterval = confidence !== undefined;
  const tally =
    n <= exactMaxN
      ? exactTally(differences, observed, withInterval)
      : monteCarloTally(differences, observed, resamples, options.seed ?? 0, withInterval);
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
  const result: PermutationTestResult = {
    observed,
    pValue,
    pValueAbsolute: alternative === 'two-sided' ? Math.min(1, share(tally.absoluteAtLeast)) : pValue,
    alternative,
    method: tally.exact ? 'exact' : 'monte-carlo',
    patterns: tally.patterns,
  };
  if (confidence !== undefined && tally.flippedMeans) {
    const twoSided = alternative === 'two-sided' ? pValue : Math.min(1, 2 * Math.min(less, greater));
    result.interval = invertedInterval(tally, adjustment, 1 - confidence, twoSided);
  }
  return result;
}

/**
 * The δ whose two-sided p (SciPy's rule) exceeds alpha: greater(δ) counts the patterns with t_F ≤ δ,
 * less(δ) those with t_F ≥ δ, each with the patterns that flip nothing (always as extreme); both must
 * exceed alpha/2, which holds from the j-th smallest t_F to the j-th largest.
 */
function invertedInterval(
  tally: Tally,
  adjustment: number,
  alpha: number,
  pValueAtZero: number,
): { low: number; high: number; confidence: number } {
  const means = (tally.flippedMeans as Float64Array).slice();
  const needed = (alpha / 2) * (tally.patterns + adjustment) - adjustment - (tally.unflipped ?? 0);
  const j = needed < 0 ? 0 : Math.floor(needed) + 1;
  let low = j === 0 ? -Infinity : j <= means.length ? select(means, j - 1) : Infinity;
  let high = j === 0 ? Infinity : j <= means.length ? select(means, means.length - j) : -Infinity;
  // Rounding ties at δ = 0 count as extreme in the test: where it did not reject, neither does the interval.
  if (pValueAtZero > alpha) {
    low = Math.min(low, 0);
    high = Math.max(high, 0);
  }
  return { low, high, confidence: 1 - alpha };
}

/**
 * The k-th smallest value (0-based), reordering `values` (Hoare's selection with a median-of-three pivot):
 * linear on average where sorting the 2²⁰ patterns of an exact test would dominate its cost.
 */
function select(values: Float64Array, k: number): number {
  let left = 0;
  let right = values.length - 1;
  while (right > left) {
    const middle = (left + right) >>> 1;
    const [x, y, z] = [values[left], values[middle], values[right]];
    // The median of the three.
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i] = values[j];
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return values[k];
  }
  return values[k];
}

interface Tally {
  exact: boolean;
  patterns: number;
  atMost: number;
  atLeast: number;
  absoluteAtLeast: number;
  /** Per pattern that flips at least one item: the mean of the flipped dᵢ (only for the interval). */
  flippedMeans?: Float64Array;
  /** Patterns that flip no item. */
  unflipped?: number;
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
function exactTally(differences: ArrayLike<number>, observed: number, withInterval = false): Tally {
  const n = differences.length;
  const half = Math.floor(n / 2);
  const low = halfSums(differences, 0, half);
  const high = halfSums(differences, half, n);
  const { add, tally } = counter(observed, absoluteSum(differences));
  for (let a = 0; a < low.length; a++) for (let b = 0; b < high.length; b++) add((low[a] + high[b]) / n);
  if (!withInterval) return { exact: true, patterns: 2 ** n, ...tally };
  // Per half: the sum of the flipped dᵢ (bit clear) and how many there are.
  const flipped = (from: number, to: number) => {
    const size = to - from;
    const sums = new Float64Array(2 ** size);
    const counts = new Uint8Array(2 ** size);
    for (let mask = 0; mask < sums.length; mask++)
      for (let j = 0; j < size; j++)
        if (!(mask & (1 << j))) {
          sums[mask] += differences[from + j];
          counts[mask]++;
        }
    return { sums, counts };
  };
  const left = flipped(0, half);
  const right = flipped(half, n);
  const flippedMeans = new Float64Array(2 ** n - 1);
  let next = 0;
  for (let a = 0; a < left.sums.length; a++)
    for (let b = 0; b < right.sums.length; b++) {
      const count = left.counts[a] + right.counts[b];
      if (count > 0) flippedMeans[next++] = (left.sums[a] + right.sums[b]) / count;
    }
  return { exact: true, patterns: 2 ** n, ...tally, flippedMeans, unflipped: 1 };
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
  withInterval = false,
): Tally {
  const n = differences.length;
  const random = new FastRandom(seed);
  const { add, tally } = counter(observed, absoluteSum(differences));
  // Items with the same |d| are interchangeable: a group of m contributes |d|·(2·Binomial(m, ½) − m),
  // i.e. |d|·(2·popcount(m random bits) − m). For 0/1 score differences that is one group, so a resample
  // of 100,000 pairs costs ~3,000 32-bit draws instead of 100,000.
  // Differences whose |d| occurs once take one bit each from a shared 32-bit draw.
  const groups = magnitudeGroups(differences);
  const singleGroups = groups.filter((group) => group.size === 1);
  const singles = Float64Array.from(singleGroups.map((group) => group.magnitude));
  const shared = groups.filter((group) => group.size > 1);
  // For the interval: which items each draw flips. A group's first `positive` bits are its items with
  // dᵢ = +|d| (a set bit keeps their sign), the rest those with dᵢ = −|d| (a set bit flips them).
  const singlePositive = Uint8Array.from(singleGroups.map((group) => group.positive));
  const zeros = withInterval ? n - groups.reduce((total, group) => total + group.size, 0) : 0;
  const zeroRandom = new FastRandom((seed ^ 0x5bd1e995) >>> 0);
  const flippedMeans = withInterval ? new Float64Array(resamples) : undefined;
  let unflipped = 0;
  let next = 0;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let flippedSum = 0;
    let flippedCount = 0;
    for (const { magnitude, size, positive } of shared) {
      let positives = 0;
      let keptPositive = 0;
      let remaining = size;
      for (let start = 0; remaining > 0; start += 32) {
        const width = Math.min(32, remaining);
        const word = width === 32 ? random.nextUint32() : random.nextUint32() >>> (32 - width);
        positives += popcount(word);
        if (withInterval && start < positive) {
          const k = Math.min(width, positive - start);
          keptPositive += popcount(k === 32 ? word : word & ((1 << k) - 1));
        }
        remaining -= width;
      }
      sum += magnitude * (2 * positives - size);
      if (withInterval) {
        // Flipped: items with d = +|d| whose bit is clear, items with d = −|d| whose bit is set.
        const flippedPositive = positive - keptPositive;
        const flippedNegative = positives - keptPositive;
        flippedSum += magnitude * (flippedPositive - flippedNegative);
        flippedCount += flippedPositive + flippedNegative;
      }
    }
    let word = 0;
    for (let i = 0; i < singles.length; i++) {
      if ((i & 31) === 0) word = random.nextUint32();
      const bit = word & 1;
      sum += bit ? singles[i] : -singles[i];
      if (withInterval && bit !== singlePositive[i]) {
        flippedSum += singlePositive[i] ? singles[i] : -singles[i];
        flippedCount++;
      }
      word >>>= 1;
    }
    add(sum / n);
    if (flippedMeans) {
      for (let remaining = zeros; remaining > 0; remaining -= 32)
        flippedCount += popcount(
          remaining >= 32 ? zeroRandom.nextUint32() : zeroRandom.nextUint32() >>> (32 - remaining),
        );
      if (flippedCount === 0) unflipped++;
      else flippedMeans[next++] = flippedSum / flippedCount;
    }
  }
  return {
    exact: false,
    patterns: resamples,
    ...tally,
    ...(flippedMeans ? { flippedMeans: flippedMeans.subarray(0, next), unflipped } : {}),
  };
}

/** Nonzero |dᵢ| with how many items have it, and how many of those have dᵢ > 0. */
function magnitudeGroups(
  values: ArrayLike<number>,
): Array<{ magnitude: number; size: number; positive: number }> {
  const groups = new Map<number, { magnitude: number; size: number; positive: number }>();
  for (let i = 0; i < values.length; i++) {
    const magnitude = Math.abs(values[i]);
    if (magnitude === 0) continue;
    const group = groups.get(magnitude) ?? { magnitude, size: 0, positive: 0 };
    group.size++;
    if (values[i] > 0) group.positive++;
    groups.set(magnitude, group);
  }
  return [...groups.values()];
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
