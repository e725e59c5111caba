/** The normal (Wald-type) interval estimate ± z_{(1+c)/2}·SE, for estimates whose stderr is known. */
import { normalQuantile } from './distributions.js';
import type { Interval } from './proportion-interval.js';
import { requireProbability } from './validate.js';

export function normalInterval(estimate: number, standardError: number, confidence = 0.95): Interval {
  requireProbability('normalInterval', 'confidence', confidence);
  const half = normalQuantile(0.5 + confidence / 2) * standardError;
  return { low: estimate - half, high: estimate + half };
}
