import { describe, expect, it } from 'vitest';
import { judgeScoreRange, proportionScale } from './judge-scale.js';

describe('judgeScoreRange', () => {
  it("reads each verdict's scale: score min..max, label scores, a JSON schema's bounds, pairwise 0..1", () => {
    expect(judgeScoreRange({ verdict: { type: 'score', min: 1, max: 5 } })).toEqual([1, 5]);
    expect(judgeScoreRange({ verdict: { type: 'label', labels: { good: 1, bad: 0, meh: 0.5 } } })).toEqual([
      0, 1,
    ]);
    const schema = { type: 'object', properties: { rating: { type: 'number', minimum: 0, maximum: 10 } } };
    expect(judgeScoreRange({ verdict: { type: 'json', schema, field: 'rating' } })).toEqual([0, 10]);
    // A schema that leaves the field unbounded bounds nothing.
    expect(judgeScoreRange({ verdict: { type: 'json', schema: { type: 'object' }, field: 'rating' } })).toBe(
      undefined,
    );
    expect(judgeScoreRange({ mode: 'pairwise', verdict: { type: 'label', labels: { A: 1, B: 0 } } })).toEqual(
      [0, 1],
    );
  });

  it('lets only a judge on [0, 1] (or a metric no judge scores) take a 0/1 interval', () => {
    expect(proportionScale(undefined)).toBe(true);
    expect(proportionScale({ verdict: { type: 'score', min: 1, max: 5 } })).toBe(false);
    expect(proportionScale({ verdict: { type: 'score', min: 0, max: 1 } })).toBe(true);
    expect(proportionScale({ verdict: { type: 'label', labels: { y: 1, n: 0 } } })).toBe(true);
    expect(proportionScale({ verdict: { type: 'json', schema: {}, field: 's' } })).toBe(false);
    // A results.json judge report carries the same mode and verdict.
    expect(proportionScale({ metric: 'quality', mode: 'pairwise', verdict: { type: 'label' } })).toBe(true);
  });
});
