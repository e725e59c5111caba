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
