/**
 * The 95% interval reported next to a mean-aggregated metric, chosen by the kind of per-item scores:
 * Wilson when every score is 0 or 1 (accuracy), the t-interval otherwise. Metrics with other
 * aggregations (f1, mcc, bleu, perplexity, median…) get a percentile or BCa interval from
 * `bootstrapInterval` instead. The method is part of the result so the results file can record it.
 */
import { isBinary } from './descriptive.js';
import { proportionConfidenceInterval } from './proportion-interval.js';
import { tInterval } from './t-interval.js';
import { badArgument } from './validate.js';

export interface ScoreInterval {
  low: number;
  high: number;
  method: 'wilson' | 't';
  confidence: number;
}

export function meanScoreInterval(scores: ArrayLike<number>, confidence = 0.95): ScoreInterval {
  if (scores.length === 0) throw badArgument('meanScoreInterval', 'needs at least one score');
  if (isBinary(scores)) {
    let correct = 0;
    for (let i = 0; i < scores.length; i++) correct += scores[i];
    const { low, high } = proportionConfidenceInterval(correct, scores.length, { confidence });
    return { low, high, method: 'wilson', confidence };
  }
  const { low, high } = tInterval(scores, { confidence });
  return { low, high, method: 't', confidence };
}
