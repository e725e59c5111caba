import { describe, expect, it } from 'vitest';
import { judgeConfigSchema } from '../metrics/llm-judge-config.js';
import { combineScores, judgeGenerateRequest } from './judge-stage.js';

describe('combineScores', () => {
  it("one judge's score is its own", () => {
    expect(combineScores([7], 'mean', false)).toBe(7);
  });

  it("a jury's mean is the mean of its jurors' scores", () => {
    expect(combineScores([7, 8, 10], 'mean', true)).toBeCloseTo(25 / 3, 14);
  });

  it('a majority is the score most jurors gave; a tie has none and says so', () => {
    expect(combineScores([3, 5, 3], 'majority', true)).toBe(3);
    expect(combineScores([3, 5], 'majority', true)).toEqual({
      failure: 'jury tie: no majority among the scores 3, 5',
    });
  });
});

describe('judgeGenerateRequest', () => {
  const config = (extra: Record<string, unknown>) =>
    judgeConfigSchema.parse({
      model: 'dummy',
      prompt: 'p',
      verdict: { type: 'score', min: 0, max: 1 },
      ...extra,
    });

  it('is greedy with 256 tokens unless the judge block says otherwise, and passes other kwargs through', () => {
    expect(judgeGenerateRequest(config({}), 'Rate it.')).toEqual({
      context: 'Rate it.',
      until: [],
      maxGenToks: 256,
      temperature: 0,
      doSample: false,
      extra: {},
    });
    expect(
      judgeGenerateRequest(
        config({ generation_kwargs: { max_gen_toks: 16, until: '\n', top_p: 0.5 } }),
        'Rate it.',
      ),
    ).toMatchObject({ maxGenToks: 16, until: ['\n'], extra: { top_p: 0.5 } });
  });

  it('with a system message, sends the chat as the JSON message list chat backends read', () => {
    expect(JSON.parse(judgeGenerateRequest(config({ system: 'Be strict.' }), 'Rate it.').context)).toEqual([
      { role: 'system', content: 'Be strict.' },
      { role: 'user', content: 'Rate it.' },
    ]);
  });

  it('a judge block names one model or a jury of two or more, not both', () => {
    const verdict = { type: 'score', min: 0, max: 1 };
    expect(judgeConfigSchema.safeParse({ prompt: 'p', verdict }).success).toBe(false);
    expect(
      judgeConfigSchema.safeParse({
        model: 'dummy',
        jury: [{ model: 'a' }, { model: 'b' }],
        prompt: 'p',
        verdict,
      }).success,
    ).toBe(false);
    expect(judgeConfigSchema.safeParse({ jury: [{ model: 'a' }], prompt: 'p', verdict }).success).toBe(false);
    expect(
      judgeConfigSchema.parse({ jury: [{ model: 'a' }, { model: 'b' }], prompt: 'p', verdict }).aggregate,
    ).toBe('mean');
  });
});
