import { describe, expect, it } from 'vitest';
import { FastRandom } from './fast-random.js';
import { moverDifferenceInterval } from './mover-interval.js';
import { proportionConfidenceInterval } from './proportion-interval.js';

const wilson = (k: number, n: number) => {
  const { low, high } = proportionConfidenceInterval(k, n, { method: 'wilson' });
  return { value: k / n, low, high };
};

describe('moverDifferenceInterval', () => {
  it("with Wilson intervals is Newcombe's method 10 (Newcombe 1998, Table II)", () => {
    // Newcombe's example (a): 56/70 − 48/80 = 0.2000, method 10 interval 0.0524 to 0.3339.
    const interval = moverDifferenceInterval(wilson(48, 80), wilson(56, 70));
    expect(interval.low).toBeCloseTo(0.0524, 4);
    expect(interval.high).toBeCloseTo(0.3339, 4);
    // Example (c): 5/56 − 0/29 = 0.0893, method 10: −0.0381 to 0.1926.
    const edge = moverDifferenceInterval(wilson(0, 29), wilson(5, 56));
    expect(edge.low).toBeCloseTo(-0.0381, 4);
    expect(edge.high).toBeCloseTo(0.1926, 4);
  });

  it('with symmetric intervals is the normal interval of the difference', () => {
    const interval = moverDifferenceInterval(
      { value: 1, low: 0.7, high: 1.3 },
      { value: 2, low: 1.6, high: 2.4 },
    );
    expect(interval.low).toBeCloseTo(1 - 0.5, 12);
    expect(interval.high).toBeCloseTo(1 + 0.5, 12);
  });

  it('refuses an interval that does not hold its value', () => {
    expect(() => moverDifferenceInterval({ value: 0.5, low: 0.6, high: 0.7 }, wilson(1, 2))).toThrow(
      /interval must contain its value/,
    );
  });

  it('covers the true difference of two accuracies about 95% of the time (seeded simulation)', () => {
    const random = new FastRandom(20);
    const binomial = (n: number, p: number) => {
      let k = 0;
      for (let i = 0; i < n; i++) if (random.nextDouble() < p) k++;
      return k;
    };
    for (const [n, pA, pB] of [
      [50, 0.5, 0.6],
      [200, 0.8, 0.85],
      [100, 0.1, 0.05],
    ]) {
      let covered = 0;
      const trials = 4000;
      for (let trial = 0; trial < trials; trial++) {
        const interval = moverDifferenceInterval(wilson(binomial(n, pA), n), wilson(binomial(n, pB), n));
        if (interval.low <= pB - pA && pB - pA <= interval.high) covered++;
      }
      // Newcombe reports near-nominal coverage for method 10; 4000 trials give a standard error of 0.0034.
      expect(covered / trials).toBeGreaterThan(0.93);
      expect(covered / trials).toBeLessThan(0.975);
    }
  });
});
