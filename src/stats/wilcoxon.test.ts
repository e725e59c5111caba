import { describe, expect, it } from 'vitest';
import { wilcoxonSignedRank } from './wilcoxon.js';

// Every expected value is scipy.stats.wilcoxon 1.17.1 with the same arguments.
describe('wilcoxonSignedRank beyond the reference vectors', () => {
  const tiedWithZero = [1, 2, 2, -1, 3, 0, 4, -2, 5];

  it('auto switches to an exhaustive permutation test with ties or zeros and n ≤ 13', () => {
    // scipy.stats.wilcoxon(d) → statistic 5.5, pvalue 0.1015625
    const twoSided = wilcoxonSignedRank(tiedWithZero);
    expect(twoSided).toMatchObject({ method: 'permutation', statistic: 5.5 });
    expect(twoSided.pValue).toBeCloseTo(0.1015625, 15);
    // alternative='greater' → 30.5, 0.05078125; zero_method='zsplit' → 8.0, 0.109375
    const greater = wilcoxonSignedRank(tiedWithZero, { alternative: 'greater' });
    expect(greater.statistic).toBe(30.5);
    expect(greater.pValue).toBeCloseTo(0.05078125, 15);
    const zsplit = wilcoxonSignedRank(tiedWithZero, { zeroMethod: 'zsplit' });
    expect(zsplit.statistic).toBe(8);
    expect(zsplit.pValue).toBeCloseTo(0.109375, 15);
  });

  it('handles the lower-tailed alternative, exact and asymptotic', () => {
    const corn = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
    const exact = wilcoxonSignedRank(corn, { method: 'exact', alternative: 'less' });
    expect(exact.statistic).toBe(96);
    expect(exact.pValue).toBeCloseTo(0.982330322265625, 14);
    const asymptotic = wilcoxonSignedRank(corn, {
      method: 'asymptotic',
      alternative: 'less',
      correction: true,
    });
    expect(asymptotic.pValue).toBeCloseTo(0.9809166843332187, 14);
    expect(asymptotic.z).toBeCloseTo(2.0730606950017867, 13);
  });

  it('auto uses the normal approximation above n = 50', () => {
    // numpy.round(numpy.random.default_rng(0).normal(0.3, 1, 60), 1); scipy → 475.0, 0.003186407114403248
    const d = [
      0.4, 0.2, 0.9, 0.4, -0.2, 0.7, 1.6, 1.2, -0.4, -1.0, -0.3, 0.3, -2.0, 0.1, -0.9, -0.4, -0.2, 0, 0.7,
      1.3, 0.2, 1.7, -0.4, 0.7, 1.2, 0.4, -0.4, -0.6, -0.2, 0.5, -0.7, 0.1, 0.1, 0.8, 0.5, 0.7, -0.4, 0.2,
      1.1, 1.8, -1.0, 1.8, 1.6, 1.1, 0.6, 0, 1.8, 2.3, 2.1, 1.6, 0.7, -0.9, 0.3, 1.0, -1.0, 0.7, 0.7, 1.0,
      -0.9, -0.4,
    ];
    const result = wilcoxonSignedRank(d);
    expect(result.method).toBe('asymptotic');
    expect(result.statistic).toBe(475);
    expect(result.pValue).toBeCloseTo(0.003186407114403248, 14);
    expect(result.zeroCount).toBe(2);
    expect(result.rankedCount).toBe(58);
  });

  it('refuses a single zero difference, as SciPy does, and keeps the SciPy answers around it', () => {
    // scipy.stats.wilcoxon([0.0]) raises ValueError ("two or more observations"); [0, 0] → (0.0, 1.0),
    // zsplit (1.5, 1.0); [1] → (0.0, 1.0).
    expect(() => wilcoxonSignedRank([0])).toThrow(/at least 2 differences/);
    expect(() => wilcoxonSignedRank([0], { zeroMethod: 'zsplit' })).toThrow(/at least 2 differences/);
    expect(wilcoxonSignedRank([0, 0])).toMatchObject({ statistic: 0, pValue: 1 });
    expect(wilcoxonSignedRank([0, 0], { zeroMethod: 'zsplit' })).toMatchObject({ statistic: 1.5, pValue: 1 });
    expect(wilcoxonSignedRank([1])).toMatchObject({ statistic: 0, pValue: 1, method: 'exact' });
  });

  it('refuses non-finite input', () => {
    expect(() => wilcoxonSignedRank([1, Number.NaN])).toThrow(/finite/);
  });
});
