import { describe, expect, it } from 'vitest';
import { binomialTest } from './binomial-test.js';
import { mcnemarTest } from './mcnemar.js';

describe('mcnemarTest', () => {
  it('uses the exact test below 25 discordant pairs', () => {
    const result = mcnemarTest(10, 3);
    expect(result.method).toBe('exact');
    expect(result.pValue).toBe(result.exactPValue);
  });

  it('uses chi-square with continuity correction from 25 discordant pairs on', () => {
    // scipy.stats.chi2.sf((|30−12|−1)²/42, 1) = 0.008711912962379598; exact binomtest(12, 42) = 0.0079158973…
    const result = mcnemarTest(30, 12);
    expect(result.method).toBe('chi-square-cc');
    expect(result.pValue).toBeCloseTo(0.008711912962379598, 14);
    expect(result.exactPValue).toBeCloseTo(0.007915897334896727, 14);
  });

  it('follows R for a balanced split: no correction, chi-square 0, p = 1', () => {
    const result = mcnemarTest(2, 2);
    expect(result.chiSquareCorrected).toBe(0);
    expect(result.pValueChiSquareCorrected).toBe(1);
    expect(result.exactPValue).toBe(1);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => mcnemarTest(-1, 2)).toThrow(/non-negative integer/);
    expect(() => mcnemarTest(1.5, 2)).toThrow(/non-negative integer/);
  });
});

describe('binomialTest', () => {
  it('rejects impossible arguments', () => {
    expect(() => binomialTest(11, 10)).toThrow(/cannot exceed/);
    expect(() => binomialTest(1, 10, 1.5)).toThrow(/p must be/);
  });
});
