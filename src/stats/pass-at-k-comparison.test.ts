import { describe, expect, it } from 'vitest';
import { comparePassK, evaluatePassK } from './pass-at-k-comparison.js';

const a = [
  { id: 'p1', n: 10, c: 3 },
  { id: 'p2', n: 10, c: 0 },
  { id: 'p3', n: 10, c: 10 },
  { id: 'p4', n: 10, c: 5 },
  { id: 'only-a', n: 10, c: 1 },
];
const b = [
  { id: 'p4', n: 10, c: 5 },
  { id: 'p2', n: 10, c: 1 },
  { id: 'p1', n: 10, c: 5 },
  { id: 'p3', n: 10, c: 10 },
  { id: 'only-b', n: 10, c: 9 },
];

describe('evaluatePassK', () => {
  it('averages the unbiased per-problem estimates', () => {
    // pass@2 with n = 5: c = 2 → 1 − C(3,2)/C(5,2) = 0.7; c = 0 → 0; c = 5 → 1.
    const result = evaluatePassK(
      [
        { id: 'x', n: 5, c: 2 },
        { id: 'y', n: 5, c: 0 },
        { id: 'z', n: 5, c: 5 },
      ],
      2,
      { iterations: 2000 },
    );
    expect(result.passAtK).toBeCloseTo(1.7 / 3, 12);
    // n − 1 stderr of [0.7, 0, 1]: sd = sqrt(((0.7−0.5667)² + 0.5667² + 0.4333²)/2), / √3.
    const m = 1.7 / 3;
    const sd = Math.sqrt(((0.7 - m) ** 2 + m ** 2 + (1 - m) ** 2) / 2);
    expect(result.standardError).toBeCloseTo(sd / Math.sqrt(3), 12);
    expect(result.interval[0]).toBeGreaterThanOrEqual(0);
    expect(result.interval[1]).toBeLessThanOrEqual(1);
  });
});

describe('comparePassK', () => {
  it('pairs by problem id, counts unpaired problems, and runs the exact permutation test', () => {
    const result = comparePassK(a, b, 1, 'permutation');
    // pass@1 = c/n: A = [.3, 0, 1, .5], B = [.5, .1, 1, .5]; differences [.2, .1, 0, 0].
    expect(result.paired).toBe(4);
    expect(result.unpairedA).toBe(1);
    expect(result.unpairedB).toBe(1);
    expect(result.passAtKA).toBeCloseTo(0.45, 12);
    expect(result.passAtKB).toBeCloseTo(0.525, 12);
    expect(result.difference).toBeCloseTo(0.075, 12);
    // Sign flips of (.2, .1, 0, 0): sums .3, .1, −.1, −.3, four patterns each; P(sum ≥ .3) = 4/16, so p = 2·0.25.
    expect(result.pValue).toBeCloseTo(0.5, 12);
  });

  it('gives the paired t-test p with method t', () => {
    const result = comparePassK(a, b, 1, 't');
    // t = mean(d)/(sd(d)/√4) with d = [.2, .1, 0, 0]: mean .075, sd = 0.0957427, t = 1.5667, df 3.
    expect(result.pValue).toBeCloseTo(0.2152, 3);
  });

  it('refuses duplicate ids', () => {
    expect(() => comparePassK([...a, a[0]], b, 1)).toThrow(/appears twice/);
  });
});
