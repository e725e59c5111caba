import { describe, expect, it } from 'vitest';
import {
  isBinary,
  mean,
  meanStderr,
  pearsonCorrelation,
  sampleCovariance,
  sampleStddev,
} from './descriptive.js';

// Reference values from CPython 3.11 running lm-eval's own `sample_stddev` / `mean_stderr`
// (lm_eval/api/metrics.py) on the same list.
const values = [0.5, 1.25, 3.0, 0.0, 2.5, 4.75, 1.0, 0.25, 3.5, 2.0, 1.5];

describe('descriptive statistics', () => {
  it('matches lm-eval sample_stddev and mean_stderr', () => {
    expect(sampleStddev(values)).toBeCloseTo(1.4801719801796986, 14);
    expect(meanStderr(values)).toBeCloseTo(0.4462886439503118, 14);
    expect(mean(values)).toBeCloseTo(20.25 / 11, 15);
  });

  it('is NaN below two values, where lm-eval reports N/A', () => {
    expect(sampleStddev([1])).toBeNaN();
    expect(meanStderr([1])).toBeNaN();
    expect(() => mean([])).toThrow(/at least one value/);
  });

  it('computes covariance and correlation, NaN for a constant sample', () => {
    // numpy.cov([1,2,3,4],[2,1,4,3])[0,1] = 1.0, numpy.corrcoef(...)[0,1] = 0.6
    expect(sampleCovariance([1, 2, 3, 4], [2, 1, 4, 3])).toBeCloseTo(1, 15);
    expect(pearsonCorrelation([1, 2, 3, 4], [2, 1, 4, 3])).toBeCloseTo(0.6, 15);
    expect(pearsonCorrelation([1, 1, 1], [1, 2, 3])).toBeNaN();
  });

  it('recognises 0/1 scores', () => {
    expect(isBinary([0, 1, 1])).toBe(true);
    expect(isBinary([0, 0.5])).toBe(false);
    expect(isBinary([])).toBe(false);
  });
});
