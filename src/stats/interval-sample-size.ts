/**
 * How many items an interval of a given half-width needs, for the console's note on wide intervals.
 *
 * For a proportion (0/1 scores): the smallest n whose Wilson score interval at the observed proportion p
 * has (high − low) / 2 ≤ the target half-width. The width is that of proportion-interval.ts's Wilson
 * interval with p held fixed as n grows (its exact endpoints 0 at p = 0 and 1 at p = 1 included), so the
 * answer is finite where the normal-approximation formula z²·p(1−p)/h² gives 0 (p = 0 or 1).
 *
 * For other means: the half-width shrinks as 1/√n, so n·(observed / target)², rounded up.
 */
import { normalQuantile } from './distributions.js';
import { badArgument, requireProbability } from './validate.js';

/** (high − low) / 2 of the Wilson score interval at proportion p over n items (n may be fractional). */
export function wilsonHalfWidth(p: number, n: number, confidence = 0.95): number {
  const z = normalQuantile(0.5 + 0.5 * confidence);
  const z2 = z * z;
  const center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const delta = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const low = p === 0 ? 0 : center - delta;
  const high = p === 1 ? 1 : center + delta;
  return (high - low) / 2;
}

/** The smallest whole n whose Wilson interval at proportion p is at most ±halfWidth. */
export function wilsonSampleSize(p: number, halfWidth: number, confidence = 0.95): number {
  const where = 'wilsonSampleSize';
  requireProbability(where, 'p', p, false);
  requireProbability(where, 'halfWidth', halfWidth);
  requireProbability(where, 'confidence', confidence);
  // The width falls as n grows: double to an n that is narrow enough, then bisect.
  let high = 1;
  while (wilsonHalfWidth(p, high, confidence) > halfWidth) high *= 2;
  let low = Math.floor(high / 2);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wilsonHalfWidth(p, middle, confidence) > halfWidth) low = middle;
    else high = middle;
  }
  return high;
}

/** n·(observed / target)², rounded up: the items a 1/√n interval needs to shrink to ±target. */
export function scaledSampleSize(n: number, observedHalfWidth: number, targetHalfWidth: number): number {
  if (!(n > 0) || !(observedHalfWidth >= 0) || !(targetHalfWidth > 0))
    throw badArgument('scaledSampleSize', 'needs n > 0, an observed half-width ≥ 0 and a target > 0');
  return Math.ceil(n * (observedHalfWidth / targetHalfWidth) ** 2 - 1e-9);
}
