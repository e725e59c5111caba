import { describe, expect, it } from 'vitest';
import { computedNormalQuantile, KNOWN_QUANTILES, normalQuantile } from './distributions.js';

describe('normalQuantile', () => {
  it('answers the usual two-sided levels from a table equal, bit for bit, to the long computation', () => {
    // The points a run asks for: 0.5 + 0.5 · level for 90%, 95% and 99% (floating point as the callers do it).
    expect([...KNOWN_QUANTILES.keys()].sort()).toEqual(
      [0.5 + 0.5 * 0.9, 0.5 + 0.5 * 0.95, 0.5 + 0.5 * 0.99].sort(),
    );
    for (const [p, z] of KNOWN_QUANTILES) {
      expect(Object.is(z, computedNormalQuantile(p)), `p = ${p}`).toBe(true);
      expect(normalQuantile(p)).toBe(z);
    }
    // SciPy: norm.ppf(0.975) = 1.959963984540054 (../shared/reference/stats_vectors.json).
    expect(normalQuantile(0.975)).toBe(1.959963984540054);
    // Off the table: the computation itself.
    expect(normalQuantile(0.025)).toBe(computedNormalQuantile(0.025));
    expect(normalQuantile(0.975 + 1e-12)).toBe(computedNormalQuantile(0.975 + 1e-12));
  });
});
