import { describe, expect, it } from 'vitest';
import { agreementInterval } from './agreement-interval.js';
import { cohenKappa } from './cohen-kappa.js';
import { FastRandom } from './fast-random.js';

type Pair = readonly [number, number];
const kappaOf = (pairs: readonly Pair[]) =>
  cohenKappa(
    pairs.map((pair) => pair[0]),
    pairs.map((pair) => pair[1]),
  );

/** n items, truth 0/1 with P(1) = 0.5; the second rater copies it with probability `agreement`, else guesses. */
function drawPairs(random: FastRandom, n: number, agreement: number): Pair[] {
  return Array.from({ length: n }, () => {
    const truth = random.nextDouble() < 0.5 ? 1 : 0;
    const copy = random.nextDouble() < agreement;
    return [truth, copy ? truth : random.nextDouble() < 0.5 ? 1 : 0] as const;
  });
}

describe('agreementInterval', () => {
  it('is seeded: the same seed gives the same interval, another seed another one', () => {
    const pairs = drawPairs(new FastRandom(1), 60, 0.6);
    const first = agreementInterval(pairs, kappaOf, { seed: 3, iterations: 500 });
    expect(agreementInterval(pairs, kappaOf, { seed: 3, iterations: 500 })).toEqual(first);
    expect(agreementInterval(pairs, kappaOf, { seed: 4, iterations: 500 }).low).not.toBe(first.low);
    expect(first.estimate).toBe(kappaOf(pairs));
    expect(first.low).toBeLessThan(first.estimate);
    expect(first.high).toBeGreaterThan(first.estimate);
  });

  it('covers the true κ at close to the nominal rate (seeded simulation)', () => {
    // Rater 2 copies the truth with probability a, else guesses: the population κ is exactly a
    // (p_o = a + (1 − a)/2, p_e = 1/2 with both marginals 1/2).
    const agreement = 0.6;
    const random = new FastRandom(11);
    let covered = 0;
    const replications = 200;
    for (let r = 0; r < replications; r++) {
      const interval = agreementInterval(drawPairs(random, 80, agreement), kappaOf, {
        seed: r,
        iterations: 400,
      });
      if (interval.low <= agreement && agreement <= interval.high) covered++;
    }
    // Percentile bootstrap at n = 80: nominal 0.95; 200 replications give a Monte Carlo SE of ≈ 0.015.
    expect(covered / replications).toBeGreaterThan(0.9);
    expect(covered / replications).toBeLessThan(0.99);
  });

  it('leaves out replicates where the statistic is undefined and says how many', () => {
    // Nine units where both raters say 0 and one where both say 1: a resample without the one is κ = 0/0.
    const pairs: Pair[] = [...Array.from({ length: 9 }, () => [0, 0] as const), [1, 1]];
    const interval = agreementInterval(pairs, kappaOf, { iterations: 1000 });
    // P(resample misses the one unit) = 0.9¹⁰ ≈ 0.349.
    expect(interval.undefinedReplicates / 1000).toBeGreaterThan(0.3);
    expect(interval.undefinedReplicates / 1000).toBeLessThan(0.4);
    expect(interval.low).toBe(1);
    expect(interval.high).toBe(1);
  });
});
