import { describe, expect, it } from 'vitest';
import { passAtK, passAtKAggregate, passHatK } from './pass-at-k.js';

describe('pass@k', () => {
  it('stays finite where the binomial coefficients overflow float64', () => {
    // comb(2000, 1000) overflows float64; the exact value is 1 − C(1990, 1000)/C(2000, 1000), which
    // float(1 - Fraction(comb(1990, 1000), comb(2000, 1000))) = 0.9990452674173292 in Python.
    const value = passAtK(2000, 10, 1000);
    expect(value).toBeCloseTo(0.9990452674173292, 12);
    expect(passHatK(2000, 10, 1000)).toBe(0);
  });

  it('rejects impossible counts', () => {
    expect(() => passAtK(10, 11, 1)).toThrow(/c must be/);
    expect(() => passAtK(10, 3, 11)).toThrow(/k must be/);
    expect(() => passAtK(10, 3, 0)).toThrow(/k must be/);
  });

  it('bootstraps an interval over problems', () => {
    const result = passAtKAggregate([10, 10, 10, 10, 10, 10], [0, 1, 3, 5, 9, 10], 1, { seed: 2 });
    expect(result.mean).toBeCloseTo(0.4666666666666666, 15);
    expect(result.interval.low).toBeLessThan(result.mean);
    expect(result.interval.high).toBeGreaterThan(result.mean);
    expect(result.interval.low).toBeGreaterThanOrEqual(0);
    expect(result.interval.high).toBeLessThanOrEqual(1);
  });
});
