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
});
