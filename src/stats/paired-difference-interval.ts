/**
 * The interval of candidate − baseline that comparisons report, chosen by the scores: Tango's score
 * interval when both runs are 0/1 scores, Miller's paired normal interval otherwise. `compare` and the
 * viewer both call this, so the CLI and the web view show the same interval.
 *
 * For 0/1 scores the normal interval and the paired percentile bootstrap both fail where evals live, at
 * few discordant pairs: at n = 50 with 8% of the pairs discordant the bootstrap covers 0.85 of the time
 * (nominal 0.95), with no flips both collapse to [0, 0], and the normal interval can leave [−1, 1]. The
 * score interval stays inside [−1, 1], has width when no pair flips, and covers ≥ 0.95 in that setting.
 */
import { isBinary } from './descriptive.js';
import { pairedDifference } from './paired-difference.js';
import { tangoScoreInterval } from './tango-score.js';

export interface PairedDifferenceInterval {
  low: number;
  high: number;
  confidence: number;
  method: 'tango-score' | 'normal';
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
    const { low, high } = tangoScoreInterval({ n: baseline.length, n01, n10 }, { confidence });
    return { low, high, confidence, method: 'tango-score' };
  }
  const { interval } = pairedDifference(baseline, candidate, { confidence });
  return { low: interval.low, high: interval.high, confidence, method: 'normal' };
}
