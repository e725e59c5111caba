import { describe, expect, it } from 'vitest';
import { accuracyMinimumDetectableEffect, accuracyPowerPlan, powerSampleSize } from './power.js';

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
