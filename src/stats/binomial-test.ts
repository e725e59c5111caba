/**
 * Exact binomial test, as `scipy.stats.binomtest(k, n, p, alternative).pvalue`. The two-sided p-value is
 * the total probability of outcomes no more likely than the observed one (SciPy's and R's "minlike" rule,
 * with SciPy's 1 + 1e-7 relative tolerance on "no more likely"); the binary search on the far side of the
 * mode is SciPy's, so the same tail is summed.
 */
import type { Alternative } from './alternative.js';
import { binomialCdf, binomialPmf, binomialSf } from './distributions.js';
import { badArgument, requireNonNegativeInteger, requireProbability } from './validate.js';

export function binomialTest(k: number, n: number, p = 0.5, alternative: Alternative = 'two-sided'): number {
  const where = 'binomialTest';
  requireNonNegativeInteger(where, 'k', k);
  requireNonNegativeInteger(where, 'n', n);
  if (n === 0) throw badArgument(where, 'n must be at least 1');
  if (k > n) throw badArgument(where, `k (${k}) cannot exceed n (${n})`);
  requireProbability(where, 'p', p, false);
  if (alternative === 'less') return binomialCdf(k, n, p);
  if (alternative === 'greater') return binomialSf(k - 1, n, p);
  const observed = binomialPmf(k, n, p);
  const relativeError = 1 + 1e-7;
  let pValue: number;
  if (k === p * n) {
    pValue = 1;
  } else if (k < p * n) {
    const pmf = (x: number) => -binomialPmf(x, n, p);
    const index = searchSorted(pmf, -observed * relativeError, Math.ceil(p * n), n);
    const count = n - index + (observed * relativeError === binomialPmf(index, n, p) ? 1 : 0);
    pValue = binomialCdf(k, n, p) + binomialSf(n - count, n, p);
  } else {
    const pmf = (x: number) => binomialPmf(x, n, p);
    const index = searchSorted(pmf, observed * relativeError, 0, Math.floor(p * n));
    pValue = binomialCdf(index, n, p) + binomialSf(k - 1, n, p);
  }
  return Math.min(1, pValue);
}

/** SciPy's `_binary_search_for_binom_tst`: the i in [low, high] with f(i) ≤ target < f(i + 1), f ascending. */
function searchSorted(f: (x: number) => number, target: number, low: number, high: number): number {
  while (low < high) {
    const middle = low + Math.floor((high - low) / 2);
    const value = f(middle);
    if (value < target) low = middle + 1;
    else if (value > target) high = middle - 1;
    else return middle;
  }
  return f(low) <= target ? low : low - 1;
}
