import { describe, expect, it } from 'vitest';
import { binomialCdf, binomialSf } from './distributions.js';
import { pairedPermutationTest } from './permutation-test.js';

describe('pairedPermutationTest', () => {
  const d = [0.3, -0.1, 0.5, 0.2, 0.4, -0.2, 0.6, 0.1, 0.0, 0.35];

  it('matches scipy.stats.permutation_test for one-sided alternatives', () => {
    // permutation_test((d,), numpy.mean, permutation_type='samples', n_resamples=inf, alternative=…)
    expect(pairedPermutationTest(d, { alternative: 'greater' }).pValue).toBeCloseTo(0.021484375, 15);
    expect(pairedPermutationTest(d, { alternative: 'less' }).pValue).toBeCloseTo(0.98828125, 15);
  });

  it('Monte Carlo: seeded, p = (1+count)/(1+B), close to the exact sign-flip p', () => {
    // 0/1 score differences: 18 items B-only right, 9 A-only right, 173 ties. Under the null the sum of
    // flipped signs over the 27 non-zero items is 2·Binomial(27, ½) − 27, so the exact two-sided p is
    // 2·P(Binomial(27, ½) ≥ 18).
    const diffs = [...new Array(18).fill(1), ...new Array(9).fill(-1), ...new Array(173).fill(0)];
    const exact = Math.min(1, 2 * Math.min(binomialSf(17, 27, 0.5), binomialCdf(18, 27, 0.5)));
    const result = pairedPermutationTest(diffs, { resamples: 20_000, seed: 11 });
    expect(result.method).toBe('monte-carlo');
    expect(result.patterns).toBe(20_000);
    // Monte Carlo sd of the p-value at p ≈ 0.12 with 20,000 draws is ≈ 0.0023 (doubled: 0.0046).
    expect(Math.abs(result.pValue - exact)).toBeLessThan(0.015);
    expect(pairedPermutationTest(diffs, { resamples: 20_000, seed: 11 }).pValue).toBe(result.pValue);
    // Never zero: the observed pattern counts.
    const extreme = pairedPermutationTest(new Array(40).fill(1), { resamples: 999 });
    expect(extreme.pValue).toBe((2 * 1) / 1000);
  });

  it('Monte Carlo with continuous differences uses one random bit per item', () => {
    const continuous = Array.from({ length: 60 }, (_, i) => Math.sin(i + 1) + 0.4);
    const result = pairedPermutationTest(continuous, { resamples: 5000, seed: 3 });
    expect(result.pValue).toBeLessThan(0.01);
    expect(result.pValue).toBeGreaterThan(0);
  });

  it('counts ties near a zero mean at the scale of the data, as exact arithmetic does', () => {
    // Exact (fractions.Fraction over the 8 sign patterns) and scipy.stats.permutation_test both give 1.0;
    // a tolerance relative to |observed| = 1.9e-17 gave 0.75.
    expect(pairedPermutationTest([0.1, 0.2, -0.3]).pValue).toBe(1);
    expect(pairedPermutationTest([0.1, 0.2, -0.3, 0.25, -0.25]).pValue).toBe(1);
  });

  it('validates its options', () => {
    expect(() => pairedPermutationTest(d, { resamples: 0 })).toThrow(/positive integer/);
    expect(() => pairedPermutationTest(d, { exactMaxN: 40 })).toThrow(/at most 30/);
  });
});

describe('pairedPermutationTest: the interval that inverts it (issue 28 C2)', () => {
  /** Is δ inside the interval exactly when the test of d − δ does not reject? Checked on a grid. */
  function checkInversion(values: number[], options: { resamples?: number; seed?: number }, alpha = 0.05) {
    const { interval } = pairedPermutationTest(values, { ...options, confidence: 1 - alpha });
    if (!interval) throw new Error('no interval');
    const min = Math.min(...values);
    const max = Math.max(...values);
    const mismatches: number[] = [];
    for (let step = 0; step <= 200; step++) {
      const delta = min + ((max - min) * step) / 200;
      // Points within 1e-9 of a limit are ties of the two computations, not a disagreement.
      if (Math.abs(delta - interval.low) < 1e-9 || Math.abs(delta - interval.high) < 1e-9) continue;
      const p = pairedPermutationTest(
        values.map((value) => value - delta),
        options,
      ).pValue;
      const inside = delta >= interval.low && delta <= interval.high;
      if (inside !== p > alpha) mismatches.push(delta);
    }
    return { interval, mismatches };
  }

  it('exact (n ≤ 20): δ is in the interval exactly when the exact test of d − δ does not reject', () => {
    const values = [0.12, -0.05, 0.3, 0.08, 0.0, 0.22, -0.14, 0.17, 0.05, 0.09, 0.0, 0.26];
    const { interval, mismatches } = checkInversion(values, {});
    expect(mismatches).toEqual([]);
    const mean = values.reduce((x, y) => x + y, 0) / values.length;
    expect(interval.low).toBeLessThan(mean);
    expect(interval.high).toBeGreaterThan(mean);
  });

  it('Monte Carlo: agrees with fresh seeded tests of d − δ on a grid, zero differences included', () => {
    const values = Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? 0 : ((i * 37) % 23) / 50 - 0.15));
    // Some magnitudes repeat (shared groups), some occur once. A test of d − δ draws other patterns (its
    // magnitudes differ), so this agreement is within Monte Carlo error; at δ = 0 the patterns are the same.
    const { mismatches } = checkInversion(values, { resamples: 2000, seed: 4 });
    expect(mismatches).toEqual([]);
  });

  it('n = 5: no two-sided 5% exact test rejects anything (the smallest p is 2/32), so the limits are infinite', () => {
    const { interval, pValue } = pairedPermutationTest([0.1, 0.2, 0.3, 0.4, 0.5], { confidence: 0.95 });
    expect(pValue).toBe(2 / 32);
    expect(interval).toEqual({ low: -Infinity, high: Infinity, confidence: 0.95 });
  });

  it('leaves the p-value and its draws as they were', () => {
    const values = Array.from({ length: 60 }, (_, i) => Math.sin(i) / 3);
    const plain = pairedPermutationTest(values, { seed: 2 });
    const withInterval = pairedPermutationTest(values, { seed: 2, confidence: 0.95 });
    expect(withInterval.pValue).toBe(plain.pValue);
    expect(withInterval.pValueAbsolute).toBe(plain.pValueAbsolute);
  });
});
