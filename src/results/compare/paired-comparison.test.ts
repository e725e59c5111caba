import { describe, expect, it } from 'vitest';
import { comparePairedScores } from './paired-comparison.js';

const z2 = (1.959963984540054 + 0.8416212335729143) ** 2;

describe('comparePairedScores on 0/1 scores', () => {
  it('gives a real MDE when both runs score 1.0, not 0.0000', () => {
    const ones = new Float64Array(240).fill(1);
    const result = comparePairedScores(ones, ones, { bootstrapIterations: 100, permutationResamples: 100 });
    // Nothing can go up from 1.0; a drop to 1 − δ has ω² = δ(1 − δ) whatever ρ is, so eq. 10 gives
    // δ = z²(1 − δ)/n, δ = z²/(n + z²) = 0.0316680 (z = z_.975 + z_.8).
    expect(result.mdeVariance).toBe('accuracy-rho-0.5');
    expect(result.minimumDetectableEffect).toBeCloseTo(z2 / (240 + z2), 9);
    // The score interval has width although no pair flipped (the bootstrap collapsed to [0, 0]).
    expect(result.intervalMethod).toBe('tango-score');
    const zz = 1.959963984540054 ** 2;
    expect(result.interval[0]).toBeCloseTo(-zz / (240 + zz), 10);
    expect(result.interval[1]).toBeCloseTo(zz / (240 + zz), 10);
    expect(result.bootstrap).toBeNull();
  });

  it('keeps the interval in [−1, 1] where the normal one leaves it', () => {
    // 9 of 10 items right → wrong: the normal interval was −0.9 ± 0.196 = [−1.096, −0.704].
    const a = new Float64Array(10).fill(1);
    const b = Float64Array.from([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const result = comparePairedScores(a, b, { bootstrapIterations: 100, permutationResamples: 100 });
    // Tango's interval, SciPy brentq on the score statistic: [−0.9821238, −0.3726877].
    expect(result.interval[0]).toBeCloseTo(-0.9821237869049271, 9);
    expect(result.interval[1]).toBeCloseTo(-0.37268768026051047, 9);
  });

  it('keeps the bootstrap for continuous scores', () => {
    const a = Float64Array.from([0.2, 0.4, 0.9, 0.5, 0.3]);
    const b = Float64Array.from([0.3, 0.4, 0.7, 0.6, 0.5]);
    const result = comparePairedScores(a, b, { bootstrapIterations: 200, permutationResamples: 100 });
    expect(result.intervalMethod).toBe('normal');
    expect(result.bootstrap?.iterations).toBe(200);
  });
});
