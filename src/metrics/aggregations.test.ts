import { describe, expect, it } from 'vitest';
import {
  bitsPerByte,
  brierScore,
  bypass,
  mean,
  median,
  nanmean,
  perplexity,
  trueMedian,
  weightedPerplexity,
} from './aggregations.js';
import { numpySum } from './numeric.js';
import { getAggregation } from './registry.js';

// Expected values: lm-eval's own aggregation functions (lm_eval/api/metrics.py at 4e7e0d47) called with the
// same inputs under CPython 3.11 + numpy 2.4 on this machine, e.g. `perplexity([-1.25, -0.5, -3.75, -2.0, -0.125])`.
describe('aggregations', () => {
  it('mean adds left to right as Python sum() does', () => {
    expect(mean([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])).toBe(0.39999999999999997);
  });

  it('median is the upper middle element, not an average', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
  });

  it('true_median is the statistical median (statistics.median), offered beside lm-eval’s', () => {
    // statistics.median([3, 1, 2, 4]) = 2.5, where lm-eval's sorted(arr)[len(arr) // 2] is 3.
    expect(trueMedian([3, 1, 2, 4])).toBe(2.5);
    expect(median([3, 1, 2, 4])).toBe(3);
    expect(trueMedian([5, 1, 4, 2, 3])).toBe(3);
    expect(getAggregation('true_median')).toBe(trueMedian);
    expect(getAggregation('median')).toBe(median);
  });

  it('perplexity, weighted_perplexity, bits_per_byte', () => {
    expect(perplexity([-1.25, -0.5, -3.75, -2.0, -0.125])).toBe(4.595143569306688);
    const pairs = [
      [-120.5, 30],
      [-80.25, 22],
      [-300.0, 71],
    ];
    expect(weightedPerplexity(pairs)).toBe(58.623650738620626);
    expect(bitsPerByte(pairs)).toBe(5.873410908334541);
  });

  it('nanmean skips NaN, and is NaN with nothing left', () => {
    expect(nanmean([0.1, Number.NaN, 0.7, 0.25])).toBe(0.3499999999999999);
    expect(nanmean([])).toBeNaN();
    expect(nanmean([Number.NaN])).toBeNaN();
  });

  it('brier_score over (gold, probabilities)', () => {
    const items = [
      [0, [0.7, 0.2, 0.1]],
      [2, [0.3, 0.3, 0.4]],
      [1, [0.05, 0.9, 0.05]],
    ];
    expect(brierScore(items)).toBe(0.2316666666666667);
    expect(() => brierScore([[3, [0.5, 0.5]]])).toThrow(/not a class index/);
  });

  it('bypass is 999, and empty or malformed input is an AssayError', () => {
    expect(bypass()).toBe(999);
    expect(() => mean([])).toThrow(/at least one item/);
    expect(() => mean(['x'])).toThrow(/expects numbers/);
    expect(() => weightedPerplexity([[1]])).toThrow(/pairs/);
  });
});

describe('numpySum', () => {
  // a = [1e16, 1.0, -1e16, 1.0] * 40: np.sum(a) == 128.0 (numpy 2.4 on this machine), while Python's
  // left-to-right sum(a) == 1.0, because 1e16 + 1.0 rounds differently in the two orders.
  it('sums pairwise as numpy does', () => {
    const values = Array.from({ length: 160 }, (_, index) => [1e16, 1.0, -1e16, 1.0][index % 4]);
    expect(numpySum(values)).toBe(128);
  });
});
