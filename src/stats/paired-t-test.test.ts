import { describe, expect, it } from 'vitest';
import { pairedTTest } from './paired-t-test.js';

describe('pairedTTest', () => {
  const a = [0.82, 0.75, 0.91, 0.66, 0.7, 0.88, 0.59, 0.77, 0.93, 0.81, 0.64, 0.72];
  const b = [0.78, 0.74, 0.85, 0.69, 0.61, 0.8, 0.6, 0.7, 0.9, 0.76, 0.66, 0.65];

  it('matches scipy.stats.ttest_rel one-sided p-values', () => {
    expect(pairedTTest(a, b, { alternative: 'greater' }).pValue).toBeCloseTo(0.00490165619800346, 14);
    expect(pairedTTest(a, b, { alternative: 'less' }).pValue).toBeCloseTo(0.9950983438019966, 14);
  });

  it('flags zero variance: NaN when nothing differs (SciPy too), ±∞ with p = 0 for a constant shift', () => {
    const same = pairedTTest([1, 2, 3], [1, 2, 3]);
    expect(same.t).toBeNaN();
    expect(same.pValue).toBeNaN();
    expect(same.zeroVariance).toBe(true);
    const shifted = pairedTTest([2, 3, 4], [1, 2, 3]);
    expect(shifted).toMatchObject({ t: Number.POSITIVE_INFINITY, pValue: 0, zeroVariance: true });
  });

  it('rejects unequal lengths', () => {
    expect(() => pairedTTest([1, 2], [1, 2, 3])).toThrow(/same length/);
  });
});
