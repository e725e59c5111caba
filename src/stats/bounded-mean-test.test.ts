import { describe, expect, it } from 'vitest';
import { BoundedMeanTest } from './bounded-mean-test.js';
import { FastRandom } from './fast-random.js';

const ALPHA = 0.05;

/**
 * The capital written out from Waudby-Smith & Ramdas (2024) for values already in [0, 1] and in the
 * given order: λ̃ₜ = √(2 log(1/α)/(n σ̂²ₜ₋₁)), σ̂²₀ = ¼, μ̂ₜ = (½ + Σ yᵢ)/(t + 1),
 * σ̂²ₜ = (¼ + Σ (yᵢ − μ̂ᵢ)²)/(t + 1), λₜ = min(λ̃ₜ, c/m).
 */
function capital(ys: number[], m: number, alpha: number, c: number): number {
  const n = ys.length;
  let k = 1;
  let sum = 0;
  let squares = 0;
  for (let t = 1; t <= n; t++) {
    const variance = t === 1 ? 0.25 : (0.25 + squares) / t;
    const lambda = Math.min(Math.sqrt((2 * Math.log(1 / alpha)) / (n * variance)), c / m);
    const y = ys[t - 1];
    k *= 1 + lambda * (y - m);
    sum += y;
    squares += (y - (0.5 + sum) / (t + 1)) ** 2;
  }
  return k;
}

describe('BoundedMeanTest', () => {
  it('one value: K = 1 + min(√(8 log 20), 0.9/m)·(y − m), by hand', () => {
    // λ̃₁ = √(2·log 20/(1·¼)) = 4.8955 > 0.9/0.5 = 1.8, so K = 1 + 1.8·0.5 = 1.9 and p = 1/1.9.
    const test = new BoundedMeanTest([1], { low: 0, high: 1, alpha: ALPHA });
    expect(test.pGreater(0.5)).toBeCloseTo(1 / 1.9, 14);
    // H₀ "mean ≥ 0.9" against y = 1: the reflected value 0 is above nothing, K = 1 − min(4.8955, 9)·0.1.
    expect(test.pLess(0.9)).toBe(1);
  });

  it('matches the capital written out from the paper, for one order and in the original range', () => {
    const values = [0.2, -0.4, 0.9, 0.1, 0.0, 0.3];
    // With one permutation the test's capital is the paper's capital of the values in one seeded order:
    // it must be one of the 6! orders' capitals.
    const test = new BoundedMeanTest(values, { low: -1, high: 1, alpha: ALPHA, permutations: 1, seed: 3 });
    const p = test.pGreater(-0.1);
    const rescaled = values.map((value) => (value + 1) / 2);
    const m = (-0.1 + 1) / 2;
    const permutations = (items: number[]): number[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) =>
            permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
          );
    const candidates = permutations(rescaled).map((order) => Math.min(1, 1 / capital(order, m, ALPHA, 0.9)));
    expect(candidates.some((candidate) => Math.abs(candidate - p) < 1e-12)).toBe(true);
  });

  it('p increases with the null mean, and the bounds invert it', () => {
    const random = new FastRandom(5);
    const values = Array.from({ length: 300 }, () => random.nextDouble() * 0.6 + 0.2);
    const test = new BoundedMeanTest(values, { low: 0, high: 1, alpha: ALPHA });
    let previous = 0;
    for (let m = 0.3; m <= 0.6; m += 0.01) {
      const p = test.pGreater(m);
      expect(p).toBeGreaterThanOrEqual(previous);
      previous = p;
    }
    const low = test.lowerBound();
    expect(test.pGreater(low - 1e-9)).toBeLessThanOrEqual(ALPHA);
    expect(test.pGreater(low + 1e-9)).toBeGreaterThan(ALPHA);
    const high = test.upperBound();
    expect(test.pLess(high + 1e-9)).toBeLessThanOrEqual(ALPHA);
    expect(test.pLess(high - 1e-9)).toBeGreaterThan(ALPHA);
    const mean = values.reduce((x, y) => x + y, 0) / values.length;
    expect(low).toBeLessThan(mean);
    expect(high).toBeGreaterThan(mean);
  });

  it('the two sides mirror each other: pLess on x is pGreater on −x', () => {
    const values = [0.3, 0.5, -0.2, 0.8, 0.1, 0.4, 0.0, 0.6, 0.2, -0.5];
    const left = new BoundedMeanTest(values, { low: -1, high: 1, alpha: ALPHA, seed: 9 });
    const right = new BoundedMeanTest(
      values.map((value) => -value),
      { low: -1, high: 1, alpha: ALPHA, seed: 9 },
    );
    for (const m of [-0.2, 0, 0.1, 0.3]) expect(left.pLess(m)).toBeCloseTo(right.pGreater(-m), 12);
  });

  it('rejects a true null at most α of the time, for the two-point distribution at the ends of the range', () => {
    // Bernoulli(μ₀) is the hardest case for a test of "mean ≤ μ₀" on [0, 1]; 2,000 draws of n = 50.
    const random = new FastRandom(11);
    for (const mu of [0.05, 0.5]) {
      let rejections = 0;
      for (let r = 0; r < 2000; r++) {
        const values = Array.from({ length: 50 }, () => (random.nextDouble() < mu ? 1 : 0));
        if (new BoundedMeanTest(values, { low: 0, high: 1, alpha: ALPHA, seed: r }).pGreater(mu) <= ALPHA)
          rejections++;
      }
      expect(rejections / 2000).toBeLessThanOrEqual(ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / 2000));
    }
  });

  it('refuses values outside the stated range', () => {
    expect(() => new BoundedMeanTest([0.5, 1.2], { low: 0, high: 1, alpha: ALPHA })).toThrow(
      'values[1] = 1.2 is outside the range [0, 1]',
    );
  });
});
