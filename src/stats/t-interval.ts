/**
 * The t-interval for a mean: x̄ ± t(1−α/2, n−1) · s/√n. Used for mean-aggregated metrics whose per-item
 * scores are not 0/1 (F1, BLEU per item, log-likelihoods…).
 */
import { mean, meanStderr } from './descriptive.js';
import { studentTQuantile } from './distributions.js';
import type { Interval } from './proportion-interval.js';
import { requireFiniteValues, requireProbability } from './validate.js';

export interface MeanInterval extends Interval {
  method: 't';
  confidence: number;
  estimate: number;
  standardError: number;
  degreesOfFreedom: number;
}

export function tInterval(values: ArrayLike<number>, options: { confidence?: number } = {}): MeanInterval {
  const confidence = options.confidence ?? 0.95;
  requireFiniteValues('tInterval', 'values', values, 2);
  requireProbability('tInterval', 'confidence', confidence);
  const estimate = mean(values);
  const standardError = meanStderr(values);
  const degreesOfFreedom = values.length - 1;
  const half = studentTQuantile(0.5 + confidence / 2, degreesOfFreedom) * standardError;
  return {
    method: 't',
    confidence,
    estimate,
    standardError,
    degreesOfFreedom,
    low: estimate - half,
    high: estimate + half,
  };
}
