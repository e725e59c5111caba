/**
 * Position consistency of a pairwise judge. Each pair of responses (A, B) is judged twice, once with A
 * shown first and once with B shown first; both verdicts are given as the response that won ('A', 'B')
 * or 'tie', whatever position it held. A pair is consistent when both orders name the same outcome. An
 * inconsistent pair says the verdict followed the position, not the responses, so it counts as a tie in
 * the resolved outcome (the convention of MT-Bench's pairwise judging, Zheng et al. 2023).
 */
import { badArgument } from './validate.js';

export type PairwiseVerdict = 'A' | 'B' | 'tie';

export interface PairwiseJudgement {
  /** The verdict with A shown first. */
  aFirst: PairwiseVerdict;
  /** The verdict with B shown first. */
  bFirst: PairwiseVerdict;
}

export interface PositionConsistency {
  pairs: number;
  consistent: number;
  /** consistent / pairs. */
  rate: number;
  /**
   * Of the decisive verdicts (not ties) over both orders, the share that named whichever response was
   * shown first: 0.5 for a judge without position bias.
   */
  firstPositionShare: number;
  /** The resolved outcome of each pair: the shared verdict, or 'tie' when the orders disagree. */
  resolved: PairwiseVerdict[];
  /** (A wins + ½ ties) / pairs over the resolved outcomes. */
  aWinRate: number;
}

export function positionConsistency(judgements: readonly PairwiseJudgement[]): PositionConsistency {
  if (judgements.length === 0) throw badArgument('positionConsistency', 'needs at least one pair');
  let consistent = 0;
  let decisive = 0;
  let firstWins = 0;
  let aScore = 0;
  const resolved: PairwiseVerdict[] = [];
  for (const { aFirst, bFirst } of judgements) {
    if (aFirst !== 'tie') {
      decisive++;
      if (aFirst === 'A') firstWins++;
    }
    if (bFirst !== 'tie') {
      decisive++;
      if (bFirst === 'B') firstWins++;
    }
    const outcome = aFirst === bFirst ? aFirst : 'tie';
    if (aFirst === bFirst) consistent++;
    resolved.push(outcome);
    aScore += outcome === 'A' ? 1 : outcome === 'tie' ? 0.5 : 0;
  }
  const pairs = judgements.length;
  return {
    pairs,
    consistent,
    rate: consistent / pairs,
    firstPositionShare: decisive === 0 ? Number.NaN : firstWins / decisive,
    resolved,
    aWinRate: aScore / pairs,
  };
}
