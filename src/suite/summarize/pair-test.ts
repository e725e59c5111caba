/**
 * One cell of a head-to-head matrix: B − A on the docs both models scored, with `assay compare`'s default
 * test and the interval that matches it. For 0/1 scores that is McNemar's test with Tango's score interval
 * (its continuity matched to McNemar, stats/paired-difference-interval.ts), both O(n), so a matrix of
 * 20 models × 60 tasks stays cheap; other scores go through compare's full paired comparison
 * (results/compare/paired-comparison.ts: the sign-flip permutation test and its inverted interval).
 */
import { comparePairedScores } from '../../results/compare/paired-comparison.js';
import { isBinary } from '../../stats/descriptive.js';
import { mcnemarTest } from '../../stats/mcnemar.js';
import { pairedDifferenceInterval } from '../../stats/paired-difference-interval.js';
import { meanOf } from './shared-docs.js';

export interface PairTest {
  n: number;
  difference: number;
  ci: [number, number];
  pValue: number;
  test: 'mcnemar' | 'permutation';
}

export function pairTest(
  a: Float64Array,
  b: Float64Array,
  options: { confidence: number; seed: number },
): PairTest {
  const n = a.length;
  if (isBinary(a) && isBinary(b)) {
    let rightToWrong = 0;
    let wrongToRight = 0;
    for (let i = 0; i < n; i++) {
      if (a[i] > b[i]) rightToWrong++;
      else if (a[i] < b[i]) wrongToRight++;
    }
    const interval = pairedDifferenceInterval(a, b, options.confidence);
    return {
      n,
      difference: meanOf(b) - meanOf(a),
      ci: [interval.low, interval.high],
      pValue: mcnemarTest(rightToWrong, wrongToRight).pValue,
      test: 'mcnemar',
    };
  }
  const compared = comparePairedScores(a, b, {
    alpha: 1 - options.confidence,
    seed: options.seed,
    permutationResamples: 2000,
    bootstrapIterations: 1000,
  });
  return {
    n,
    difference: compared.difference,
    ci: compared.interval,
    pValue: compared.pValue,
    test: 'permutation',
  };
}
