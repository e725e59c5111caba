import { describe, expect, it } from 'vitest';
import { clusteredStandardError } from './clustered-stderr.js';
import { resampledQuestionScores } from './repeated-samples.js';

describe('clusteredStandardError', () => {
  it('equals the naive stderr up to the n/(n−1) diagonal when every item is its own cluster', () => {
    const scores = [1, 0, 1, 1, 0, 1, 1, 1];
    const result = clusteredStandardError(
      scores,
      scores.map((_, i) => i),
    );
    expect(result.standardError).toBeCloseTo(result.naiveStandardError, 15);
    expect(result).toMatchObject({ clusterCount: 8, estimator: 'miller', clusterCorrection: false });
  });

  it('needs two clusters for the C/(C−1) factor', () => {
    expect(() => clusteredStandardError([1, 0], ['a', 'a'], { clusterCorrection: true })).toThrow(
      /2 clusters/,
    );
  });
});

describe('resampledQuestionScores', () => {
  it('reports how much of the variance of the mean more repeats could remove', () => {
    // Two questions, 2 samples each: means 0.5 and 1 → var 0.125; within variances 0.5 and 0 → E[σ²/K] 0.125.
    const result = resampledQuestionScores([
      [1, 0],
      [1, 1],
    ]);
    expect(result.withinShare).toBeCloseTo(1, 15);
    expect(result.betweenVariance).toBeCloseTo(0, 15);
    expect(() => resampledQuestionScores([[1]])).toThrow(/2 questions/);
  });
});
