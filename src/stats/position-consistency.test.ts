import { describe, expect, it } from 'vitest';
import { type PairwiseJudgement, positionConsistency } from './position-consistency.js';

describe('positionConsistency', () => {
  it('counts pairs whose two orders agree, resolves the others to ties, and measures first-position bias', () => {
    const judgements: PairwiseJudgement[] = [
      { aFirst: 'A', bFirst: 'A' }, // consistent, A
      { aFirst: 'B', bFirst: 'B' }, // consistent, B
      { aFirst: 'A', bFirst: 'B' }, // the first shown won both times: position bias, a tie
      { aFirst: 'tie', bFirst: 'tie' }, // consistent tie
    ];
    const result = positionConsistency(judgements);
    expect(result).toEqual({
      pairs: 4,
      consistent: 3,
      rate: 0.75,
      // Decisive verdicts: A(first), A(second), B(second), B(first), A(first), B(first): 4 of 6 named the first.
      firstPositionShare: 4 / 6,
      resolved: ['A', 'B', 'tie', 'tie'],
      aWinRate: (1 + 0 + 0.5 + 0.5) / 4,
    });
  });

  it('a judge that always prefers the first position is consistent on no pair', () => {
    const result = positionConsistency(
      Array.from({ length: 5 }, () => ({ aFirst: 'A', bFirst: 'B' }) as const),
    );
    expect(result.rate).toBe(0);
    expect(result.firstPositionShare).toBe(1);
    expect(result.aWinRate).toBe(0.5);
  });
});
