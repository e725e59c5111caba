import { describe, expect, it } from 'vitest';
import {
  bootstrapReplicates,
  bootstrapStderr,
  meanFromCounts,
  medianFromCounts,
} from './bootstrap-stderr.js';
import { mean, sampleStddev } from './descriptive.js';

const values = [0.5, 1.25, 3.0, 0.0, 2.5, 4.75, 1.0, 0.25, 3.5, 2.0, 1.5];

function pythonMedian(items: readonly number[]): number {
  const sorted = [...items].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

describe('bootstrapStderr, lm-eval mode', () => {
  // Expected values: CPython 3.11 running lm-eval's procedure verbatim
  // (chunks of min(1000, iters), random.Random(i) per chunk, rnd.choices(xs, k=len(xs)), sample_stddev).
  it('reproduces lm-eval for statistics.median at 2,000 iterations', () => {
    expect(bootstrapStderr(pythonMedian, values, 2000, { mode: 'lm-eval' })).toBeCloseTo(
      0.6080649479006587,
      13,
    );
  });

  it('runs whole chunks only, as lm-eval does (1,500 iterations → 1,000 replicates)', () => {
    const replicates = bootstrapReplicates(mean, values, 1500, { mode: 'lm-eval' });
    expect(replicates.length).toBe(1000);
    expect(Array.from(replicates.slice(0, 3))).toEqual([
      2.6818181818181817, 2.2045454545454546, 2.227272727272727,
    ]);
    expect(sampleStddev(replicates)).toBeCloseTo(0.4254631236578948, 13);
    expect(bootstrapStderr(mean, values, 300, { mode: 'lm-eval' })).toBeCloseTo(0.4129685919017412, 13);
  });

  it('is NaN where lm-eval reports N/A', () => {
    expect(bootstrapStderr(mean, [1], 1000, { mode: 'lm-eval' })).toBeNaN();
    expect(bootstrapStderr(mean, values, 0)).toBeNaN();
  });
});

describe('bootstrapStderr, fast mode', () => {
  it('is deterministic per seed', () => {
    const first = bootstrapStderr(mean, values, 2000, { seed: 3 });
    expect(bootstrapStderr(mean, values, 2000, { seed: 3 })).toBe(first);
    expect(bootstrapStderr(mean, values, 2000, { seed: 4 })).not.toBe(first);
  });

  it('gives the same replicates whether the statistic is computed from counts or from items', () => {
    const fromItems = bootstrapReplicates(pythonMedian, values, 500, { seed: 9 });
    const fromCounts = bootstrapReplicates(pythonMedian, values, 500, {
      seed: 9,
      fromCounts: medianFromCounts,
    });
    expect(Array.from(fromCounts)).toEqual(Array.from(fromItems));
  });

  it('converges to the ideal bootstrap stderr of a mean, √(Σ(x−x̄)²/n)/√n', () => {
    // 0/1 scores take the binomial path: p = 0.7, n = 200 → √(0.7·0.3/200) = 0.0324037…
    const scores = Array.from({ length: 200 }, (_, i) => (i < 140 ? 1 : 0));
    const stderr = bootstrapStderr(mean, scores, 20_000, { seed: 1, fromCounts: meanFromCounts });
    // Monte Carlo error of a stddev from 20,000 replicates ≈ 0.0324/√40000 ≈ 1.6e-4.
    expect(Math.abs(stderr - Math.sqrt((0.7 * 0.3) / 200))).toBeLessThan(8e-4);
    // Continuous values take the index-draw path.
    const continuous = Array.from({ length: 300 }, (_, i) => Math.sin(i) * 3);
    const ideal = Math.sqrt((sampleStddev(continuous) ** 2 * 299) / 300 / 300);
    const fast = bootstrapStderr(mean, continuous, 20_000, { seed: 2, fromCounts: meanFromCounts });
    expect(Math.abs(fast - ideal) / ideal).toBeLessThan(0.02);
  });

  it('agrees with lm-eval mode up to Monte Carlo error', () => {
    const exact = bootstrapStderr(pythonMedian, values, 4000, { mode: 'lm-eval' });
    const fast = bootstrapStderr(pythonMedian, values, 4000, { seed: 5, fromCounts: medianFromCounts });
    expect(Math.abs(fast - exact) / exact).toBeLessThan(0.05);
  });

  it('groups non-primitive items with a key', () => {
    const pairs = values.map((value, i) => ({ value, id: i }));
    const statistic = (items: readonly { value: number }[]) => mean(items.map((item) => item.value));
    const keyed = bootstrapStderr(statistic, pairs, 1000, { seed: 1, key: (item) => item.value });
    expect(keyed).toBe(bootstrapStderr(mean, values, 1000, { seed: 1 }));
  });

  it('rejects a non-integer iteration count', () => {
    expect(() => bootstrapReplicates(mean, values, 1.5)).toThrow(/positive integer/);
  });
});

describe('upperMedianFromCounts', () => {
  it('equals lm-eval’s median, sorted(arr)[len // 2], of the expanded sample', async () => {
    const { upperMedianFromCounts } = await import('./bootstrap-stderr.js');
    const { median } = await import('../metrics/aggregations.js');
    const values = [1, 2, 5, 9];
    for (const counts of [
      [1, 1, 1, 1],
      [2, 0, 1, 1],
      [0, 3, 0, 2],
      [1, 0, 0, 0],
    ]) {
      const expanded = values.flatMap((value, i) => new Array(counts[i]).fill(value));
      expect(upperMedianFromCounts(values, Uint32Array.from(counts))).toBe(median(expanded));
    }
  });
});

describe('the bootstrap stderr of lm-eval’s median', () => {
  // CPython 3.11 running lm-eval's bootstrap_stderr procedure over its median, sorted(arr)[len(arr)//2]
  // (test/fixtures/stats/edge_vectors.json): 0.7559890833352472 at 2,000 iterations.
  const items = [0.5, 1.25, 3.0, 0.0, 2.5, 4.75, 1.0, 0.25, 3.5, 2.0, 1.5, 9.0];
  it('is reproduced in lm-eval mode and matched by the fast mode up to Monte Carlo error', async () => {
    const { median } = await import('../metrics/aggregations.js');
    const { upperMedianFromCounts } = await import('./bootstrap-stderr.js');
    const lmEvalMedian = (sample: readonly number[]) => median([...sample]);
    expect(bootstrapStderr(lmEvalMedian, items, 2000, { mode: 'lm-eval' })).toBeCloseTo(
      0.7559890833352472,
      12,
    );
    const fast = bootstrapStderr(lmEvalMedian, items, 20_000, { seed: 1, fromCounts: upperMedianFromCounts });
    expect(Math.abs(fast - 0.7559890833352472) / 0.7559890833352472).toBeLessThan(0.05);
  });
});
