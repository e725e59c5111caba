import { describe, expect, it } from 'vitest';
import { jointBootstrapMeans } from './joint-bootstrap.js';

describe('joint bootstrap over docs', () => {
  it('draws the same docs for every model of a task (identical scores give identical replicates)', () => {
    const scores = [
      [
        Float64Array.from([1, 0, 1, 1, 0]),
        Float64Array.from([1, 0, 1, 1, 0]),
        Float64Array.from([0, 1, 0, 0, 1]),
      ],
    ];
    const [means] = jointBootstrapMeans(scores, { iterations: 200, seed: 1 });
    for (let b = 0; b < 200; b++) {
      expect(means[b * 3]).toBe(means[b * 3 + 1]);
      // The third model is the complement of the first on every doc: their means sum to 1 in every draw.
      expect(means[b * 3] + means[b * 3 + 2]).toBeCloseTo(1, 12);
    }
  });

  it('gives the exact bootstrap distribution of a two-doc mean (enumeration: 1/4, 1/2, 1/4)', () => {
    const [means] = jointBootstrapMeans([[Float64Array.from([0, 1])]], { iterations: 40_000, seed: 7 });
    const frequency = (value: number) => means.filter((mean) => mean === value).length / means.length;
    // Binomial standard error of a frequency near 1/2 at 40,000 draws is 0.0025: 4 of them.
    expect(frequency(0)).toBeCloseTo(0.25, 1);
    expect(Math.abs(frequency(0) - 0.25)).toBeLessThan(0.01);
    expect(Math.abs(frequency(0.5) - 0.5)).toBeLessThan(0.01);
    expect(Math.abs(frequency(1) - 0.25)).toBeLessThan(0.01);
  });

  it('has the plug-in variance p(1 − p)/n of a mean of 0/1 scores', () => {
    const n = 50;
    const scores = Float64Array.from({ length: n }, (_, i) => (i < 15 ? 1 : 0));
    const [means] = jointBootstrapMeans([[scores]], { iterations: 20_000, seed: 3 });
    const average = means.reduce((sum, value) => sum + value, 0) / means.length;
    const variance = means.reduce((sum, value) => sum + (value - average) ** 2, 0) / (means.length - 1);
    expect(average).toBeCloseTo(0.3, 2);
    // 0.3 · 0.7 / 50 = 0.0042; the variance estimate from 20,000 draws is within 3%.
    expect(Math.abs(variance / 0.0042 - 1)).toBeLessThan(0.03);
  });

  it('refuses models with different numbers of docs', () => {
    expect(() => jointBootstrapMeans([[[1, 0], [1]]], { iterations: 10, seed: 0 })).toThrow(
      /shared docs only/,
    );
  });
});
