import { describe, expect, it } from 'vitest';
import { normalQuantile } from './distributions.js';
import { FastRandom } from './fast-random.js';
import {
  accuracyCorrelationBounds,
  accuracyDifferenceVariance,
  accuracyMinimumDetectableEffect,
  accuracyPowerPlan,
  powerSampleSize,
} from './power.js';

// Reference numbers: the same formulas in NumPy/SciPy (z from scipy.special.ndtri; the MDE by 200
// fixed-point iterations of eq. 10 with the candidate's Bernoulli variance).
describe('power planning for accuracies', () => {
  it('gives the items needed to detect 0.72 → 0.73, paired (ρ = 0.5) and unpaired', () => {
    const plan = accuracyPowerPlan(0.01, { baseline: 0.72, correlation: 0.5 });
    expect(plan.paired.nExact).toBeCloseTo(15647.738394999438, 6);
    expect(plan.paired.n).toBe(15648);
    expect(plan.unpaired.nExact).toBeCloseTo(31293.483500849816, 6);
    expect(plan.unpaired.n).toBe(31294);
  });

  it('gives the minimum detectable effect at n = 14,042', () => {
    const mde = accuracyMinimumDetectableEffect(14042, { baseline: 0.72, correlation: 0.5 });
    expect(mde.paired).toBeCloseTo(0.010552957480728794, 10);
    expect(mde.unpaired).toBeCloseTo(0.014885789672311649, 10);
  });

  it('validates inputs', () => {
    expect(() => powerSampleSize(0, { omega2: 0.1 })).toThrow(/non-zero/);
    expect(() => powerSampleSize(0.01, { omega2: -1 })).toThrow(/omega2/);
    expect(() => accuracyPowerPlan(0.5, { baseline: 0.72 })).toThrow(/baseline \+ delta/);
    expect(() => accuracyPowerPlan(0.01, { baseline: 0.72, correlation: 2 })).toThrow(/correlation/);
  });
});

// References: SciPy (scipy.stats.norm.ppf for z; the smallest root of δ − z·√(ω²(δ)/n) located on a
// 200,000-point grid over (0, headroom] and polished with scipy.optimize.brentq, xtol 1e-15).
describe('accuracyMinimumDetectableEffect at the edges', () => {
  it('is bounded by the headroom and says when no root exists', () => {
    // --baseline 0.9 --n 40 printed 0.1329, more than the 0.1 the baseline leaves.
    const high = accuracyMinimumDetectableEffect(40, { baseline: 0.9, correlation: 0.5 });
    expect(high).toMatchObject({ paired: null, unpaired: null });
    expect(high.headroom).toBeCloseTo(0.1, 15);
    const drop = accuracyMinimumDetectableEffect(40, {
      baseline: 0.9,
      correlation: 0.5,
      direction: 'decrease',
    });
    expect(drop.headroom).toBe(0.9);
    expect(drop.paired).toBeCloseTo(0.17455981771869586, 10);
    expect(drop.unpaired).toBeCloseTo(0.24954716099763385, 10);
  });

  it('finds the smallest root, not where fixed-point iteration stops', () => {
    // --baseline 0.05 --n 2 printed 0.8455 (paired) and an unpaired MDE above 1.
    // The paired root, 0.7210239396107684, is where ρ = 0.5 is impossible (0.05 and 0.771 correlate at
    // most 0.125), so the paired MDE is refused with that bound; the unpaired one is the root.
    expect(() => accuracyMinimumDetectableEffect(2, { baseline: 0.05, correlation: 0.5 })).toThrow(
      /between accuracies 0\.05 and 0\.771024: .*max correlation 0\.125/,
    );
    const tiny = accuracyMinimumDetectableEffect(2, { baseline: 0.05, correlation: 0 });
    expect(tiny.unpaired).toBeCloseTo(0.8106324199721925, 10);
    expect(tiny.paired).toBe(tiny.unpaired);
    const low = accuracyMinimumDetectableEffect(50, { baseline: 0.2, correlation: 0.3 });
    expect(low.paired).toBeCloseTo(0.21114937572551276, 10);
  });

  it('converges with negative correlations', () => {
    // Fixed-point iteration stopped after 100 steps at 0.5603 and 0.4394, still oscillating.
    expect(accuracyMinimumDetectableEffect(4, { baseline: 0.2, correlation: -0.1 }).paired).toBeCloseTo(
      0.7147326275620275,
      10,
    );
    expect(accuracyMinimumDetectableEffect(6, { baseline: 0.18, correlation: -0.4 }).paired).toBeCloseTo(
      0.690052887254791,
      10,
    );
    // Where it did not converge at larger n (0.64 at n = 22, ρ = −0.5), ρ itself is impossible.
    expect(() => accuracyMinimumDetectableEffect(22, { baseline: 0.64, correlation: -0.5 })).toThrow(
      /correlate between -0\.111/,
    );
    expect(accuracyMinimumDetectableEffect(836, { baseline: 0.3, correlation: -0.4 }).paired).toBeCloseTo(
      0.07643957621478219,
      10,
    );
    expect(accuracyMinimumDetectableEffect(100, { baseline: 0.5, correlation: -0.5 }).paired).toBeCloseTo(
      0.2292537923927312,
      10,
    );
  });

  it('solves eq. 10 to 1e-9 or reports no root, over 2,000 random cases', () => {
    const random = new FastRandom(17);
    const z = normalQuantile(0.975) + normalQuantile(0.8);
    let reachable = 0;
    for (let i = 0; i < 2000; i++) {
      const baseline = 0.01 + 0.98 * random.nextDouble();
      const n = 2 + random.nextBelow(2000);
      const rho = 0.9 * random.nextDouble() - 0.4;
      const direction = random.nextDouble() < 0.5 ? 'increase' : 'decrease';
      const sign = direction === 'increase' ? 1 : -1;
      const headroom = direction === 'increase' ? 1 - baseline : baseline;
      const gap = (delta: number) =>
        delta - z * Math.sqrt(accuracyDifferenceVariance(baseline, baseline + sign * delta, rho) / n);
      let result: ReturnType<typeof accuracyMinimumDetectableEffect>;
      try {
        result = accuracyMinimumDetectableEffect(n, { baseline, correlation: rho, direction });
      } catch (error) {
        // Only an infeasible correlation may be refused.
        expect(String(error)).toMatch(/max correlation|correlate between/);
        continue;
      }
      if (result.paired === null) {
        expect(gap(headroom)).toBeLessThan(0);
        continue;
      }
      reachable++;
      expect(result.paired).toBeLessThanOrEqual(headroom);
      expect(Math.abs(gap(result.paired))).toBeLessThan(1e-9);
      if (result.unpaired !== null) expect(result.unpaired).toBeLessThanOrEqual(headroom);
    }
    expect(reachable).toBeGreaterThan(1000);
  });
});

describe('correlation feasibility', () => {
  it('bounds the correlation of two 0/1 scores by their means (Fréchet)', () => {
    // √(0.72·0.27/(0.73·0.28)) and −√(0.28·0.27/(0.72·0.73)), SciPy/NumPy.
    const bounds = accuracyCorrelationBounds(0.72, 0.73);
    expect(bounds.high).toBeCloseTo(0.9752314191715393, 14);
    expect(bounds.low).toBeCloseTo(-0.37925666301115424, 14);
  });

  it('rejects an infeasible correlation with the bound, and plans at the bound', () => {
    // 0.99 would give 315 items where at least 778 are needed.
    expect(() => accuracyPowerPlan(0.01, { baseline: 0.72, correlation: 0.99 })).toThrow(
      /correlation 0\.99 is not possible .*max correlation 0\.975/,
    );
    const atBound = accuracyPowerPlan(0.01, { baseline: 0.72, correlation: 0.9752314191715393 });
    expect(atBound.paired.nExact).toBeCloseTo(777.0390937005612, 6);
    expect(atBound.paired.n).toBe(778);
    expect(() => accuracyMinimumDetectableEffect(14042, { baseline: 0.72, correlation: 0.999 })).toThrow(
      /correlation 0\.999 is not possible/,
    );
  });
});
