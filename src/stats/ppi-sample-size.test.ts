import { describe, expect, it } from 'vitest';
import { ppiMomentsFromPilot, ppiSampleSize, ppiVariance } from './ppi-sample-size.js';

describe('ppiSampleSize', () => {
  it('a judge uncorrelated with the labels saves nothing: the classical count, ⌈z²σ²/h²⌉', () => {
    const result = ppiSampleSize({
      labelVariance: 0.25,
      judgeVariance: 0.2,
      covariance: 0,
      documents: 10_000,
      halfWidth: 0.05,
    });
    // z = 1.959964: 1.959964² · 0.25 / 0.0025 = 384.15 → 385.
    expect(result.classicalLabels).toBe(385);
    expect(result.labels).toBe(385);
    expect(result.lambda).toBe(0);
  });

  it('a judge with correlation ρ needs about (1 − ρ²) of the classical labels when documents are plentiful', () => {
    // σ_Y² = σ_f² = 0.25, ρ = 0.9: the large-N variance is σ_Y²(1 − ρ²)/n, so n ≈ 385 · 0.19 ≈ 73.
    const result = ppiSampleSize({
      labelVariance: 0.25,
      judgeVariance: 0.25,
      covariance: 0.9 * 0.25,
      documents: 1_000_000,
      halfWidth: 0.05,
    });
    const z = 1.959963984540054;
    const moments = { labelVariance: 0.25, judgeVariance: 0.25, covariance: 0.225 };
    const asymptotic = (z * z * 0.25 * (1 - 0.81)) / 0.0025; // 72.99
    const n = result.labels as number;
    // The finite N adds λ²σ_f²/N and pulls λ just under ρ, so the exact count may sit one above.
    expect(n).toBeGreaterThanOrEqual(Math.ceil(asymptotic));
    expect(n).toBeLessThanOrEqual(Math.ceil(asymptotic) + 1);
    expect(result.lambda).toBeCloseTo(0.9, 3);
    // It is the smallest count that reaches the width.
    expect(z * Math.sqrt(ppiVariance(moments, n, 1_000_000).variance)).toBeLessThanOrEqual(0.05);
    expect(z * Math.sqrt(ppiVariance(moments, n - 1, 1_000_000).variance)).toBeGreaterThan(0.05);
  });

  it('says null when labelling every document still misses the width', () => {
    expect(
      ppiSampleSize({
        labelVariance: 0.25,
        judgeVariance: 0.25,
        covariance: 0,
        documents: 100,
        halfWidth: 0.01,
      }).labels,
    ).toBeNull();
  });

  it('estimates moments from a pilot slice with n − 1 denominators', () => {
    expect(ppiMomentsFromPilot([1, 0, 1, 0], [1, 0, 0, 0], [1, 0, 0, 0, 1, 1])).toEqual({
      labelVariance: 1 / 3,
      judgeVariance: 0.3,
      covariance: 1 / 6,
    });
  });
});
