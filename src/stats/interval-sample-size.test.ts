import { describe, expect, it } from 'vitest';
import { scaledSampleSize, wilsonHalfWidth, wilsonSampleSize } from './interval-sample-size.js';
import { proportionConfidenceInterval } from './proportion-interval.js';

// References: SciPy 1.17 `binomtest(k, n).proportion_ci(method='wilson')`, half-widths (high − low) / 2:
//   k=n=92: 0.020041, k=n=93: 0.019834 (and the same at k=0);  k=131, n=1048: 0.020033;  k=132, n=1056: 0.019957;
//   k=1199, n=2398: 0.019996.
// Closed forms: at p = 1 the interval is [n / (n + z²), 1], so ±2 points needs z² / (n + z²) ≤ 0.04, n ≥ 92.2;
// at p = 0.5 the half-width is z / (2√(n + z²)), so n + z² ≥ (z / 0.04)², n ≥ 2397.07.
describe('wilsonSampleSize', () => {
  it('matches the closed forms at p = 0, 0.5 and 1', () => {
    expect(wilsonSampleSize(1, 0.02)).toBe(93);
    expect(wilsonSampleSize(0, 0.02)).toBe(93);
    expect(wilsonSampleSize(0.5, 0.02)).toBe(2398);
  });

  it('falls between SciPy’s widths at p = 0.125 (1 of 8 right)', () => {
    const n = wilsonSampleSize(0.125, 0.02);
    expect(n).toBeGreaterThan(1048);
    expect(n).toBeLessThanOrEqual(1056);
  });

  it('is the interval of proportion-interval.ts at whole counts, and the smallest n that is narrow enough', () => {
    for (const [k, n] of [
      [1, 8],
      [0, 6],
      [20, 20],
      [131, 1048],
    ]) {
      const interval = proportionConfidenceInterval(k, n);
      expect(wilsonHalfWidth(k / n, n)).toBeCloseTo((interval.high - interval.low) / 2, 12);
    }
    for (const p of [0.01, 0.125, 0.3, 0.77, 0.999]) {
      const n = wilsonSampleSize(p, 0.02);
      expect(wilsonHalfWidth(p, n)).toBeLessThanOrEqual(0.02);
      expect(wilsonHalfWidth(p, n - 1)).toBeGreaterThan(0.02);
    }
  });

  it('refuses a proportion or width outside its range', () => {
    expect(() => wilsonSampleSize(1.2, 0.02)).toThrow(/p must be in \[0, 1\]/);
    expect(() => wilsonSampleSize(0.5, 0)).toThrow(/halfWidth must be in \(0, 1\)/);
  });
});

describe('scaledSampleSize', () => {
  it('scales n by the squared ratio of half-widths (a 1/√n interval)', () => {
    // ±0.2 at n = 10 → ±0.02 needs 100 times the items.
    expect(scaledSampleSize(10, 0.2, 0.02)).toBe(1000);
    expect(scaledSampleSize(8, 0.15, 0.02)).toBe(450);
    expect(scaledSampleSize(8, 0.151, 0.02)).toBe(457);
  });
});
