import { describe, expect, it } from 'vitest';
import { plugInStderr } from './descriptive.js';
import { pairedBootstrapInterval } from './paired-bootstrap.js';
import { pairedDifference } from './paired-difference.js';

const baseline = [1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1];
const candidate = [1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1];

describe('pairedDifference', () => {
  it('reports candidate − baseline and the flip table for 0/1 scores', () => {
    const result = pairedDifference(baseline, candidate);
    expect(result.difference).toBeCloseTo(0.15, 15);
    expect(result.flips).toEqual({ rightToWrong: [16], wrongToRight: [1, 6, 12, 18] });
    expect(result.interval.method).toBe('normal');
  });

  it('uses a t-interval on request and omits flips for graded scores', () => {
    // scipy.stats.ttest_rel(candidate, baseline).confidence_interval(0.95) → (-0.07902775687968744, 0.3790277568796874)
    const t = pairedDifference(baseline, candidate, { interval: 't' });
    expect(t.interval.low).toBeCloseTo(-0.07902775687968744, 12);
    expect(t.interval.high).toBeCloseTo(0.3790277568796874, 12);
    expect(pairedDifference([0.5, 1, 0], [1, 0.5, 0]).flips).toBeUndefined();
  });
});

describe('pairedBootstrapInterval', () => {
  it('is seeded, brackets the difference, and its stderr approaches the plug-in stderr', () => {
    const result = pairedBootstrapInterval(baseline, candidate, { iterations: 20_000, seed: 4 });
    expect(pairedBootstrapInterval(baseline, candidate, { iterations: 20_000, seed: 4 })).toEqual(result);
    expect(result.low).toBeLessThan(0.15);
    expect(result.high).toBeGreaterThan(0.15);
    const differences = candidate.map((value, i) => value - baseline[i]);
    expect(Math.abs(result.standardError / plugInStderr(differences) - 1)).toBeLessThan(0.03);
    const bca = pairedBootstrapInterval(baseline, candidate, { iterations: 20_000, seed: 4, method: 'bca' });
    expect(bca.method).toBe('bca');
    expect(bca.low).toBeLessThan(bca.high);
  });
});
