/**
 * The interval of a difference B − A of two independent estimates, each given only by its value and
 * its own confidence interval: the MOVER (method of variance estimates recovery; Zou & Donner 2008),
 *
 *   L = (b − a) − √((b − l_b)² + (u_a − a)²),   U = (b − a) + √((u_b − b)² + (a − l_a)²).
 *
 * With Wilson intervals for two proportions it is Newcombe's hybrid score interval (Newcombe 1998,
 * method 10); with symmetric intervals it is the normal interval of the difference, ±√(h_a² + h_b²).
 * A leaderboard diff uses it because a leaderboard keeps each task's interval, not its items.
 */
import { badArgument } from './validate.js';

export interface Estimate {
  value: number;
  low: number;
  high: number;
}

export function moverDifferenceInterval(a: Estimate, b: Estimate): { low: number; high: number } {
  for (const [name, estimate] of [
    ['a', a],
    ['b', b],
  ] as const) {
    if (![estimate.value, estimate.low, estimate.high].every(Number.isFinite))
      throw badArgument('moverDifferenceInterval', `${name} must have a finite value and interval`);
    if (!(estimate.low <= estimate.value && estimate.value <= estimate.high))
      throw badArgument('moverDifferenceInterval', `${name}'s interval must contain its value`);
  }
  const difference = b.value - a.value;
  return {
    low: difference - Math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2),
    high: difference + Math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2),
  };
}
