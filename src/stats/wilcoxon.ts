/**
 * Wilcoxon signed-rank test on paired differences, reproducing `scipy.stats.wilcoxon(d, zero_method,
 * correction, alternative, method)` (SciPy 1.17, `scipy/stats/_wilcoxon.py`):
 *
 * - zero methods: `wilcox` drops zero differences; `pratt` ranks them but gives them to neither sign and
 *   adjusts the normal approximation (Cureton 1967); `zsplit` ranks them and splits their rank sum evenly.
 * - `exact`: the null distribution of R+ over the 2ⁿ sign patterns (n = differences ranked). With ties or
 *   zeros that distribution is only approximate; like SciPy, a non-integer R+ is rounded up for the lower
 *   tail and down for the upper tail.
 * - `asymptotic`: z = (R+ − n(n+1)/4)/σ with the tie correction σ² = (n(n+1)(2n+1) − Σ(t³−t)/2)/24 and an
 *   optional continuity correction of ½.
 * - `auto` (SciPy's default): exact when n ≤ 50 with no ties or zeros; an exhaustive sign-flip permutation
 *   test of R+ when there are ties or zeros and n ≤ 13; otherwise asymptotic.
 *
 * The reported statistic is min(R+, R−) for two-sided tests and R+ otherwise, as SciPy reports it.
 */
import type { Alternative } from './alternative.js';
import { normalCdf, normalSf } from './distributions.js';
import { badArgument, requireFiniteValues } from './validate.js';

export type WilcoxonZeroMethod = 'wilcox' | 'pratt' | 'zsplit';
export type WilcoxonMethod = 'auto' | 'exact' | 'asymptotic';

export interface WilcoxonOptions {
  zeroMethod?: WilcoxonZeroMethod;
  method?: WilcoxonMethod;
  /** Continuity correction for the normal approximation. SciPy's default is false. */
  correction?: boolean;
  alternative?: Alternative;
}

export interface WilcoxonResult {
  statistic: number;
  pValue: number;
  /** The method that produced the p-value once `auto` is resolved. */
  method: 'exact' | 'asymptotic' | 'permutation';
  /** The normal-approximation z (−|z| for two-sided tests, as SciPy); only for the asymptotic method. */
  z?: number;
  rankSumPositive: number;
  rankSumNegative: number;
  /** Differences that entered the ranking (zeros excluded under `wilcox`). */
  rankedCount: number;
  zeroCount: number;
}

/** Above this many ranked differences the exact null distribution (O(n³) to build) is refused. */
const EXACT_MAX_N = 1000;

export function wilcoxonSignedRank(
  differences: ArrayLike<number>,
  options: WilcoxonOptions = {},
): WilcoxonResult {
  const where = 'wilcoxonSignedRank';
  requireFiniteValues(where, 'differences', differences, 1);
  const zeroMethod = options.zeroMethod ?? 'wilcox';
  const correction = options.correction ?? false;
  const alternative = options.alternative ?? 'two-sided';
  let method: WilcoxonMethod | 'permutation' = options.method ?? 'auto';
  const n = differences.length;
  const zeroCount = countZeros(differences);
  if (method === 'auto' && n > 50) method = 'asymptotic';

  const ranked = signedRankStatistic(differences, zeroMethod);
  if (method === 'auto') {
    if (!ranked.hasTies && zeroCount === 0) method = 'exact';
    else if (n <= 13) method = 'permutation';
    else method = 'asymptotic';
  }

  let pValue: number;
  let z: number | undefined;
  if (method === 'asymptotic') {
    z = (ranked.rankSumPositive - ranked.nullMean) / ranked.nullStandardDeviation;
    if (correction) {
      const sign = alternative === 'greater' ? 1 : alternative === 'less' ? -1 : Math.sign(z);
      z -= (sign * 0.5) / ranked.nullStandardDeviation;
    }
    pValue = normalPValue(z, alternative);
    if (alternative === 'two-sided') z = -Math.abs(z);
  } else if (method === 'exact') {
    if (ranked.count > EXACT_MAX_N) {
      throw badArgument(
        where,
        `the exact method supports at most ${EXACT_MAX_N} ranked differences, got ${ranked.count}; use 'asymptotic'`,
      );
    }
    pValue = exactPValue(ranked.rankSumPositive, ranked.count, alternative);
  } else {
    // SciPy's permutation branch (scipy.stats.permutation_test) raises below 2 observations; a lone
    // difference of 0 gets here under `auto` and is an error there, not p = 1.
    if (n < 2)
      throw badArgument(
        where,
        `a single zero difference cannot be tested: the permutation method needs at least 2 differences (SciPy raises too), got ${n}`,
      );
    pValue = permutationPValue(differences, zeroMethod, ranked.rankSumPositive, alternative);
  }
  return {
    statistic:
      alternative === 'two-sided'
        ? Math.min(ranked.rankSumPositive, ranked.rankSumNegative)
        : ranked.rankSumPositive,
    pValue,
    method,
    ...(z === undefined ? {} : { z }),
    rankSumPositive: ranked.rankSumPositive,
    rankSumNegative: ranked.rankSumNegative,
    rankedCount: ranked.count,
    zeroCount,
  };
}

/**
 * Counts of R+ = 0 … n(n+1)/2 over the 2ⁿ sign patterns of ranks 1…n (no ties): the exact null
 * distribution. Counts are exact integers while below 2⁵³ (n ≤ 50 or so).
 */
export function wilcoxonNullDistribution(n: number): { counts: number[]; total: number } {
  if (!Number.isInteger(n) || n < 0)
    throw badArgument('wilcoxonNullDistribution', `n must be a non-negative integer, got ${n}`);
  return { counts: Array.from(nullCounts(n)), total: 2 ** n };
}

function nullCounts(n: number): Float64Array {
  const max = (n * (n + 1)) / 2;
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  // Adding rank i either to R+ or not: counts'[s] = counts[s] + counts[s − i].
  for (let i = 1; i <= n; i++) {
    const top = (i * (i + 1)) / 2;
    for (let s = top; s >= i; s--) counts[s] += counts[s - i];
  }
  return counts;
}

function exactPValue(rankSumPositive: number, n: number, alternative: Alternative): number {
  const counts = nullCounts(n);
  const total = 2 ** n;
  const cdf = (k: number) => {
    let sum = 0;
    for (let s = 0; s <= Math.min(k, counts.length - 1); s++) sum += counts[s];
    return sum / total;
  };
  const sf = (k: number) => {
    let sum = 0;
    for (let s = Math.max(0, k); s < counts.length; s++) sum += counts[s];
    return sum / total;
  };
  if (alternative === 'less') return cdf(Math.ceil(rankSumPositive));
  if (alternative === 'greater') return sf(Math.floor(rankSumPositive));
  return Math.min(1, 2 * Math.min(sf(Math.floor(rankSumPositive)), cdf(Math.ceil(rankSumPositive))));
}

function normalPValue(z: number, alternative: Alternative): number {
  if (alternative === 'less') return normalCdf(z);
  if (alternative === 'greater') return normalSf(z);
  return Math.min(1, 2 * Math.min(normalCdf(z), normalSf(z)));
}

interface RankedStatistic {
  rankSumPositive: number;
  rankSumNegative: number;
  count: number;
  hasTies: boolean;
  nullMean: number;
  nullStandardDeviation: number;
  /** Rank of each difference (0 for zeros dropped under `wilcox`). */
  ranks: Float64Array;
  /** Constant added to R+ whatever the signs (the zsplit share of the zero ranks). */
  offset: number;
}

function signedRankStatistic(
  differences: ArrayLike<number>,
  zeroMethod: WilcoxonZeroMethod,
): RankedStatistic {
  const n = differences.length;
  const included: number[] = [];
  for (let i = 0; i < n; i++) if (zeroMethod !== 'wilcox' || differences[i] !== 0) included.push(i);
  included.sort((a, b) => Math.abs(differences[a]) - Math.abs(differences[b]));
  const ranks = new Float64Array(n);
  let tieTerm = 0;
  let hasTies = false;
  for (let start = 0; start < included.length; ) {
    let end = start + 1;
    const magnitude = Math.abs(differences[included[start]]);
    while (end < included.length && Math.abs(differences[included[end]]) === magnitude) end++;
    const size = end - start;
    const averageRank = (start + 1 + end) / 2;
    for (let j = start; j < end; j++) ranks[included[j]] = averageRank;
    if (size > 1) hasTies = true;
    // Pratt leaves the zero group out of the tie correction (it is taken out of the variance below).
    if (!(zeroMethod === 'pratt' && magnitude === 0)) tieTerm += size ** 3 - size;
    start = end;
  }
  let rankSumPositive = 0;
  let rankSumNegative = 0;
  let zeroRankSum = 0;
  let zeros = 0;
  for (let i = 0; i < n; i++) {
    if (differences[i] > 0) rankSumPositive += ranks[i];
    else if (differences[i] < 0) rankSumNegative += ranks[i];
    else {
      zeroRankSum += ranks[i];
      zeros++;
    }
  }
  const offset = zeroMethod === 'zsplit' ? zeroRankSum / 2 : 0;
  rankSumPositive += offset;
  rankSumNegative += offset;
  const count = included.length;
  let nullMean = (count * (count + 1)) / 4;
  let variance24 = count * (count + 1) * (2 * count + 1);
  if (zeroMethod === 'pratt') {
    nullMean -= (zeros * (zeros + 1)) / 4;
    variance24 -= zeros * (zeros + 1) * (2 * zeros + 1);
  }
  const nullStandardDeviation = Math.sqrt((variance24 - tieTerm / 2) / 24);
  return { rankSumPositive, rankSumNegative, count, hasTies, nullMean, nullStandardDeviation, ranks, offset };
}

/**
 * SciPy's exhaustive `permutation_test` of R+ over all 2ⁿ sign flips (ranks do not change under a flip, so
 * each pattern's R+ is a sum of ranks). Ties in the null distribution are detected with SciPy's relative
 * tolerance of 100 ulps.
 */
function permutationPValue(
  differences: ArrayLike<number>,
  zeroMethod: WilcoxonZeroMethod,
  observed: number,
  alternative: Alternative,
): number {
  const { ranks, offset } = signedRankStatistic(differences, zeroMethod);
  const n = differences.length;
  const movable: number[] = [];
  for (let i = 0; i < n; i++) if (differences[i] !== 0) movable.push(ranks[i]);
  const patterns = 2 ** n;
  // Zeros flip to zero: each of the 2^(zeros) flips of them repeats every pattern of the others.
  const repeat = 2 ** (n - movable.length);
  const gamma = Math.abs(observed * 100 * Number.EPSILON);
  let atMost = 0;
  let atLeast = 0;
  for (let mask = 0; mask < 2 ** movable.length; mask++) {
    let sum = offset;
    for (let j = 0; j < movable.length; j++) if (mask & (1 << j)) sum += movable[j];
    if (sum <= observed + gamma) atMost += repeat;
    if (sum >= observed - gamma) atLeast += repeat;
  }
  const less = atMost / patterns;
  const greater = atLeast / patterns;
  if (alternative === 'less') return less;
  if (alternative === 'greater') return greater;
  return Math.min(1, 2 * Math.min(less, greater));
}

function countZeros(values: ArrayLike<number>): number {
  let zeros = 0;
  for (let i = 0; i < values.length; i++) if (values[i] === 0) zeros++;
  return zeros;
}
