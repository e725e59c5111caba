import { describe, expect, it } from 'vitest';
import type { SampleScore } from '../read-samples.js';
import { pairScores } from './pair-samples.js';

const target = { task: 't', metric: 'acc', filter: 'none', higherIsBetter: true };
const line = (
  docId: number,
  docHash: string,
  acc: unknown,
  extra: Partial<SampleScore> = {},
): SampleScore => ({
  docId,
  docHash,
  filter: 'none',
  values: { acc },
  ...extra,
});

describe('pairScores', () => {
  it('pairs by doc_hash regardless of order, occurrence by occurrence, and counts the rest', () => {
    const a = [
      line(0, 'h1', 1),
      line(1, 'h2', 0),
      line(2, 'h2', 1),
      line(3, 'h3', true),
      line(4, 'h4', 1, { error: 'boom' }),
    ];
    const b = [
      line(7, 'h2', 1),
      line(8, 'h1', 0),
      line(9, 'h5', 1),
      line(10, 'h3', false),
      line(11, 'h4', 1),
    ];
    const paired = pairScores(a, b, target);
    // h1 ↔ h1, first h2 ↔ the only h2, h3 ↔ h3 (booleans as 0/1); A's second h2 has no partner.
    expect(paired.docIds).toEqual([0, 1, 3]);
    expect([...paired.a]).toEqual([1, 0, 1]);
    expect([...paired.b]).toEqual([0, 1, 0]);
    expect(paired.unpairedA).toBe(1);
    // B's h5, and B's h4 whose partner in A errored.
    expect(paired.unpairedB).toBe(2);
    expect(paired.unscoredA).toBe(1);
    expect(paired.unscoredB).toBe(0);
  });

  it('ignores other filters', () => {
    const a = [line(0, 'h1', 1), { ...line(0, 'h1', 0), filter: 'strict' }];
    const b = [line(0, 'h1', 1)];
    expect(pairScores(a, b, target).docIds).toEqual([0]);
  });

  it('refuses corpus-level metrics with a message', () => {
    expect(() => pairScores([line(0, 'h', [1, 0])], [line(0, 'h', [1, 1])], target)).toThrow(
      /no per-sample score/,
    );
  });

  describe('timed-out docs (over the latency cap)', () => {
    const late = (docId: number, docHash: string): SampleScore => ({
      docId,
      docHash,
      filter: 'none',
      timedOut: true,
      values: {},
    });
    const a = [line(0, 'h1', 1), line(1, 'h2', 1), line(2, 'h3', 0), late(3, 'h4')];
    const b = [line(0, 'h1', 1), late(1, 'h2'), late(2, 'h3'), line(3, 'h4', 1)];

    it('are refused by default, with the counts of each run', () => {
      expect(() => pairScores(a, b, target)).toThrow(
        'task t has timed-out docs (over the latency cap), 1 in run A and 2 in run B',
      );
    });

    it('skip: left out and counted, and their partners are not "unpaired"', () => {
      const paired = pairScores(a, b, target, { timeoutsAs: 'skip' });
      expect(paired.docIds).toEqual([0]);
      expect(paired).toMatchObject({ timedOutA: 1, timedOutB: 2, unpairedA: 0, unpairedB: 0, unscoredA: 0 });
    });

    it('wrong: scored as the worst score, in doc order; 1 for a lower-is-better metric', () => {
      const paired = pairScores(a, b, target, { timeoutsAs: 'wrong' });
      expect(paired.docIds).toEqual([0, 1, 2, 3]);
      expect([...paired.a]).toEqual([1, 1, 0, 0]);
      expect([...paired.b]).toEqual([1, 0, 0, 1]);
      const lower = pairScores(a, b, { ...target, higherIsBetter: false }, { timeoutsAs: 'wrong' });
      expect([...lower.b]).toEqual([1, 1, 1, 1]);
    });

    it('wrong: refused when the scores are not in [0, 1], where no worst score is known', () => {
      expect(() =>
        pairScores([line(0, 'h1', 3.5), late(1, 'h2')], [line(0, 'h1', 2), line(1, 'h2', 1)], target, {
          timeoutsAs: 'wrong',
        }),
      ).toThrow(/known only for scores in \[0, 1\]; acc of task t has 3\.5 \(doc 0\)/);
    });
  });
});
