/**
 * The interval of candidate − baseline, chosen by the scores: Tango's score interval when both runs are
 * 0/1 scores, Miller's paired normal interval otherwise. `compare` (and the viewer, through the same
 * comparison) reports the 0/1 one; for other scores it reports the inverted permutation test instead
 * (results/compare/paired-comparison.ts), so that the interval agrees with its verdict.
 *
 * For 0/1 scores the interval agrees with compare's verdict, McNemar's test (exact below 25 discordant
 * pairs, χ² with continuity correction from 25): it inverts Tango's score test with the continuity shift
 * `mcnemarMatchedContinuity` gives, the shift closest to 0 (0 where the plain interval already agrees)
 * that makes that test, at θ₀ = 0, reject exactly the tables McNemar's rejects. Without it the plain
 * interval excluded 0 where McNemar did not reject in 70 of the 2,116 tables with up to 45 flips each way
 * at n = 200 (0 right→wrong and 4 wrong→right: [0.0008, 0.0503] against an exact p of 0.125).
 *
 * For 0/1 scores the normal interval and the paired percentile bootstrap both fail where evals live, at
 * few discordant pairs: at n = 50 with 8% of the pairs discordant the bootstrap covers 0.85 of the time
 * (nominal 0.95), with no flips both collapse to [0, 0], and the normal interval can leave [−1, 1]. The
 * score interval stays inside [−1, 1], has width when no pair flips, and covers ≥ 0.95 in that setting.
 */
import { isBinary } from './descriptive.js';
import { normalQuantile } from './distributions.js';
import { mcnemarRejectionThreshold } from './mcnemar.js';
import { pairedDifference } from './paired-difference.js';
import { tangoScoreInterval } from './tango-score.js';

export interface PairedDifferenceInterval {
  low: number;
  high: number;
  confidence: number;
  method: 'tango-score' | 'normal';
  /** Tango's continuity shift, in pairs (0/1 scores only): see `mcnemarMatchedContinuity`. */
  continuity?: number;
}

/**
 * The continuity shift c ≥ 0 of Tango's interval for `discordant` discordant pairs at level 1 − alpha
 * that makes its test at θ₀ = 0 McNemar's. At θ₀ = 0 Tango's Z with shift c is (|n10 − n01| − c)/√D, so the
 * interval excludes 0 when |n10 − n01| − c > z√D. McNemar rejects from a threshold k (the smallest split it
 * rejects; the next smaller one has k − 2), so any c in [k − 2 − z√D, k − z√D) agrees with it on every
 * table with D discordant pairs. 0 when it lies in that range; else the middle of the range, k − 1 − z√D,
 * 1 from either split (with the χ² rule that is c = 1, Tango's corrected test, whenever 0 is not in range).
 */
export function mcnemarMatchedContinuity(discordant: number, alpha: number): number {
  const k = mcnemarRejectionThreshold(discordant, alpha);
  const z = normalQuantile(1 - alpha / 2);
  const root = z * Math.sqrt(discordant);
  // No split rejects: the most uneven one, D, must not either.
  const low = Number.isFinite(k) ? k - 2 - root : discordant - root;
  const high = Number.isFinite(k) ? k - root : Infinity;
  if (low <= 0 && high > 1e-9) return 0;
  // k − z√D > 0 for every alpha in (0, 1) (checked for D < 25 at steps of 0.01; the χ² rule has k > 1 + z√D),
  // so the shift is never negative.
  return Math.max(0, low + 1);
}

export function pairedDifferenceInterval(
  baseline: ArrayLike<number>,
  candidate: ArrayLike<number>,
  confidence = 0.95,
): PairedDifferenceInterval {
  if (isBinary(baseline) && isBinary(candidate) && baseline.length === candidate.length) {
    let n01 = 0;
    let n10 = 0;
    for (let i = 0; i < baseline.length; i++) {
      if (baseline[i] > candidate[i]) n01++;
      else if (baseline[i] < candidate[i]) n10++;
    }
    const continuity = mcnemarMatchedContinuity(n01 + n10, 1 - confidence);
    const { low, high } = tangoScoreInterval({ n: baseline.length, n01, n10 }, { confidence, continuity });
    return { low, high, confidence, method: 'tango-score', continuity };
  }
  const { interval } = pairedDifference(baseline, candidate, { confidence });
  return { low: interval.low, high: interval.high, confidence, method: 'normal' };
}
