import { describe, expect, it } from 'vitest';
import { FastRandom } from './fast-random.js';
import { proportionConfidenceInterval } from './proportion-interval.js';

describe('proportionConfidenceInterval', () => {
  it('returns the Wilson interval by default, with exact 0 and 1 endpoints', () => {
    // scipy.stats.binomtest(137, 164).proportion_ci(0.95, method='wilson')
    expect(proportionConfidenceInterval(137, 164)).toEqual({
      method: 'wilson',
      confidence: 0.95,
      estimate: 137 / 164,
      low: expect.closeTo(0.7710631895922835, 12),
      high: expect.closeTo(0.8843171959983442, 12),
    });
    expect(proportionConfidenceInterval(0, 10).low).toBe(0);
    expect(proportionConfidenceInterval(10, 10).high).toBe(1);
  });

  it('rejects impossible counts', () => {
    expect(() => proportionConfidenceInterval(11, 10)).toThrow(/cannot exceed n/);
    expect(() => proportionConfidenceInterval(0, 0)).toThrow(/at least 1/);
    expect(() => proportionConfidenceInterval(1.5, 10)).toThrow(/non-negative integer/);
    expect(() => proportionConfidenceInterval(1, 10, { confidence: 1 })).toThrow(/confidence/);
  });

  it('covers p = 0.9 at n = 100 in 93–97% of 2,000 seeded simulated runs', () => {
    const random = new FastRandom(20240601);
    const runs = 2000;
    let covered = 0;
    for (let run = 0; run < runs; run++) {
      let k = 0;
      for (let i = 0; i < 100; i++) if (random.nextDouble() < 0.9) k++;
      const { low, high } = proportionConfidenceInterval(k, 100);
      if (low <= 0.9 && 0.9 <= high) covered++;
    }
    // The exact coverage of the Wilson interval at n=100, p=0.9 is 0.93640 (see the next test), so the
    // 93% floor is only ~1.2 Monte Carlo sd (√(0.936·0.064/2000) = 0.0055) below it: this seed was not
    // chosen to pass, and a different one fails about one time in eight. The exact test below is the
    // deterministic check.
    expect(covered / runs).toBeGreaterThanOrEqual(0.93);
    expect(covered / runs).toBeLessThanOrEqual(0.97);
  });

  it('has exact coverage 0.93640 at n = 100, p = 0.9', () => {
    // Σ binom.pmf(k, 100, 0.9) over the k whose Wilson interval contains 0.9, with
    // scipy.stats.binomtest(k, 100).proportion_ci(0.95, 'wilson'): 0.9363983902254397.
    let coverage = 0;
    let pmf = 0.1 ** 100; // P(k = 0), then the ratio recurrence
    for (let k = 0; k <= 100; k++) {
      if (k > 0) pmf *= ((100 - k + 1) / k) * 9;
      const { low, high } = proportionConfidenceInterval(k, 100);
      if (low <= 0.9 && 0.9 <= high) coverage += pmf;
    }
    expect(coverage).toBeCloseTo(0.9363983902254397, 12);
  });
});
