import { describe, expect, it } from 'vitest';
import { normalQuantile } from './distributions.js';
import { FastRandom } from './fast-random.js';
import { simultaneousIntervals } from './simultaneous-intervals.js';

/** Standard normal draws (Box–Muller). */
function normals(random: FastRandom, count: number): Float64Array {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - random.nextDouble()));
    const angle = 2 * Math.PI * random.nextDouble();
    out[i] = radius * Math.cos(angle);
    if (i + 1 < count) out[i + 1] = radius * Math.sin(angle);
  }
  return out;
}

describe('simultaneous (max-t) intervals', () => {
  it('computes a one-estimate interval by hand', () => {
    // se = √(10/4) = 1.5811; |t| sorted 0, .632, .632, 1.265, 1.265; NumPy's 95th percentile sits at
    // position 3.8, between two 1.265s: half-width 1.265 · 1.5811 = 2.
    const result = simultaneousIntervals([0], [-2, -1, 0, 1, 2]);
    expect(result.standardErrors[0]).toBeCloseTo(Math.sqrt(2.5), 12);
    expect([result.low[0], result.high[0]]).toEqual([expect.closeTo(-2, 12), expect.closeTo(2, 12)]);
  });

  it('reaches the Šidák critical value for independent normal estimates', () => {
    // m independent N(0, 1): P(max|Z| ≤ c) = (2Φ(c) − 1)^m = 0.95, so c = Φ⁻¹((1 + 0.95^(1/m))/2).
    for (const m of [1, 3, 6]) {
      const iterations = 40_000;
      const replicates = normals(new FastRandom(m), iterations * m);
      const result = simultaneousIntervals(new Float64Array(m), replicates);
      const sidak = normalQuantile((1 + 0.95 ** (1 / m)) / 2);
      expect(Math.abs(result.critical - sidak)).toBeLessThan(0.04);
    }
    expect(normalQuantile((1 + 0.95) / 2)).toBeCloseTo(1.959964, 5);
  });

  it('gives a constant estimate a point interval and leaves it out of the maximum', () => {
    const result = simultaneousIntervals([0.5, 0], [0.5, -1, 0.5, 1, 0.5, 0, 0.5, 2, 0.5, -2]);
    expect([result.low[0], result.high[0]]).toEqual([0.5, 0.5]);
    expect(result.low[1]).toBeLessThan(0);
  });
});
