import { describe, expect, it } from 'vitest';
import { FastRandom } from '../../stats/fast-random.js';
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

  it('keeps the bootstrap for continuous scores; the interval is the permutation test inverted', () => {
    const a = Float64Array.from([0.2, 0.4, 0.9, 0.5, 0.3]);
    const b = Float64Array.from([0.3, 0.4, 0.7, 0.6, 0.5]);
    const result = comparePairedScores(a, b, { bootstrapIterations: 200, permutationResamples: 100 });
    // (It was B − A ± 1.96·SE, 'normal'.) No sign pattern of 5 items is rare enough for a two-sided 5%
    // test (the smallest exact p is 2/32), so the interval is all the differences scores in [0, 1] allow.
    expect(result.intervalMethod).toBe('sign-flip-permutation');
    expect(result.interval).toEqual([-1, 1]);
    expect(result.bootstrap?.iterations).toBe(200);
  });
});

describe('comparePairedScores on continuous scores: interval and verdict from one test (issue 28 C2)', () => {
  const normals = (random: FastRandom, n: number) =>
    Float64Array.from({ length: n }, () => {
      const u = 1 - random.nextDouble();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    });

  // n = 15, 20, 30 and 50 run in `npm run bench` (bench/stats.ts).
  for (const n of [10, 12])
    it(`covers ≥ 0.95 − 3 SE with normal differences at n = ${n} (B − A ± 1.96·SE: 0.918 at n = 10)`, () => {
      const random = new FastRandom(100 + n);
      const replications = 2000;
      let covered = 0;
      for (let r = 0; r < replications; r++) {
        // B − A = 0.02 + 0.1·z: normal differences with mean 0.02, of scores around 0.5.
        const a = new Float64Array(n).fill(0.5);
        const b = Float64Array.from(normals(random, n), (z) => 0.52 + 0.1 * z);
        const result = comparePairedScores(a, b, { bootstrapIterations: 2, permutationResamples: 100 });
        if (result.interval[0] <= 0.02 && 0.02 <= result.interval[1]) covered++;
      }
      expect(covered / replications).toBeGreaterThanOrEqual(
        0.95 - 3 * Math.sqrt((0.95 * 0.05) / replications),
      );
    });

  it('the interval excludes 0 exactly when the permutation p is below alpha (exact and Monte Carlo rows)', () => {
    const random = new FastRandom(8);
    const disagreements: string[] = [];
    let rejected = 0;
    for (const n of [8, 14, 30, 120])
      for (let r = 0; r < 40; r++) {
        const shift = (r % 4) * 0.03;
        const a = Float64Array.from({ length: n }, () => random.nextDouble());
        const b = Float64Array.from(a, (x) =>
          Math.min(1, Math.max(0, x + shift + (random.nextDouble() < 0.3 ? random.nextDouble() - 0.5 : 0))),
        );
        const result = comparePairedScores(a, b, {
          bootstrapIterations: 2,
          permutationResamples: 2000,
          seed: r,
        });
        const excludes = result.interval[0] > 0 || result.interval[1] < 0;
        if (result.pValue < 0.05) rejected++;
        if (excludes !== result.pValue < 0.05) disagreements.push(`n = ${n}, r = ${r}`);
      }
    expect(disagreements).toEqual([]);
    // Both outcomes occur, so the agreement is not vacuous.
    expect(rejected).toBeGreaterThan(10);
    expect(rejected).toBeLessThan(150);
  });
});
