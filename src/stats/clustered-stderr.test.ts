import { describe, expect, it } from 'vitest';
import { clusteredStandardError } from './clustered-stderr.js';
import { pairedDifference } from './paired-difference.js';
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

  it('is null, with a note, for a single cluster', () => {
    // One cluster's residuals sum to 0: eq. 4 used to report 0.0483 here against a naive 0.1528.
    const scores = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1];
    const result = clusteredStandardError(scores, Array(10).fill('a'));
    expect(result.standardError).toBeNull();
    expect(result.note).toBe(
      'undefined with 1 cluster: the between-cluster variance needs at least 2 clusters',
    );
    expect(result.naiveStandardError).toBeCloseTo(0.15275252316519464, 15);
    expect(
      clusteredStandardError(scores, Array(10).fill('a'), { estimator: 'sandwich' }).standardError,
    ).toBeNull();
    // The paired difference reports null rather than failing on the CR1 factor.
    const clustered = pairedDifference(scores, [...scores].reverse(), {
      clusters: Array(10).fill('a'),
    }).clustered;
    expect(clustered).toMatchObject({ standardError: null, standardErrorCr1: null, clusterCount: 1 });
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

  it('never reports a share above 1', () => {
    // Question means 0.5, 0.5, 1, 0.5, 0.5, 0.5: var 0.04167, but the noise E[σ²/K] is 0.20833, so the
    // plain ratio is 5 (NumPy). The between-question variance, truncated at 0, makes the share 1.
    const result = resampledQuestionScores([
      [1, 0],
      [0, 1],
      [1, 1],
      [1, 0],
      [0, 1],
      [0, 1],
    ]);
    expect(result.withinShare).toBe(1);
    expect(result.betweenVariance).toBeLessThan(0);
    // No variance at all: no share.
    expect(
      resampledQuestionScores([
        [1, 1],
        [1, 1],
      ]).withinShare,
    ).toBeNaN();
  });
});
