/**
 * Exact binomial and multinomial draws. A bootstrap resample of n items that take D distinct values is
 * fully described by how many times each value was drawn, a Multinomial(n, m_j / n) vector; for 0/1
 * scores that is one Binomial(n, k/n) draw instead of n index draws, which is what makes 100,000
 * bootstrap iterations over 14,042 items cheap.
 */
import { binomialPmf } from './distributions.js';
import type { FastRandom } from './fast-random.js';

/**
 * Draws from Binomial(n, p) by inversion, walking outward from the mode and subtracting each probability
 * from a uniform draw. Every outcome owns an interval of exactly its probability, so the draw is exact up
 * to floating-point rounding; the walk takes about 1.6·√(np(1−p)) steps on average. The pmf at the mode
 * is cached because a bootstrap asks for the same (n, p) over and over.
 */
export class BinomialSampler {
  private cachedN = -1;
  private cachedP = -1;
  private cachedMode = 0;
  private cachedModeProbability = 0;

  constructor(private readonly random: FastRandom) {}

  sample(n: number, p: number): number {
    if (n <= 0 || p <= 0) return 0;
    if (p >= 1) return n;
    if (n !== this.cachedN || p !== this.cachedP) {
      this.cachedN = n;
      this.cachedP = p;
      this.cachedMode = Math.min(n, Math.floor((n + 1) * p));
      this.cachedModeProbability = binomialPmf(this.cachedMode, n, p);
    }
    const mode = this.cachedMode;
    const modeProbability = this.cachedModeProbability;
    const ratio = p / (1 - p);
    for (;;) {
      let u = this.random.nextDouble() - modeProbability;
      if (u < 0) return mode;
      let low = mode;
      let high = mode;
      let lowProbability = modeProbability;
      let highProbability = modeProbability;
      while (low > 0 || high < n) {
        if (high < n) {
          highProbability *= ((n - high) / (high + 1)) * ratio;
          high++;
          u -= highProbability;
          if (u < 0) return high;
        }
        if (low > 0) {
          lowProbability *= low / ((n - low + 1) * ratio);
          low--;
          u -= lowProbability;
          if (u < 0) return low;
        }
        // Both tails have underflowed: the rest of the mass is below rounding, so draw again.
        if (highProbability === 0 && lowProbability === 0) break;
      }
    }
  }
}

/**
 * Fills `out` with one Multinomial(n, weights / Σweights) draw by conditional binomials: the count of
 * category j is Binomial(remaining n, w_j / remaining weight). Cost is D binomial draws.
 */
export function sampleMultinomial(
  sampler: BinomialSampler,
  n: number,
  weights: ArrayLike<number>,
  totalWeight: number,
  out: Uint32Array | Float64Array,
): void {
  let remainingN = n;
  let remainingWeight = totalWeight;
  const last = weights.length - 1;
  for (let j = 0; j < last; j++) {
    if (remainingN === 0) {
      out[j] = 0;
      continue;
    }
    const count = sampler.sample(remainingN, Math.min(1, weights[j] / remainingWeight));
    out[j] = count;
    remainingN -= count;
    remainingWeight -= weights[j];
  }
  if (last >= 0) out[last] = remainingN;
}
