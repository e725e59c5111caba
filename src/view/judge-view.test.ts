import { describe, expect, it } from 'vitest';
import { judgeCallsView } from './judge-view.js';
import { correctness } from './sample-view.js';

describe('judgeCallsView', () => {
  it("splits a chat prompt into its system and user messages and keeps the judge's answer and verdict", () => {
    const prompt = JSON.stringify([
      { role: 'system', content: 'You grade answers.' },
      { role: 'user', content: 'Question: 2 + 2?\nAnswer to grade: 4\nEnd with "Score: N".' },
    ]);
    expect(
      judgeCallsView([
        {
          metric: 'llm_judge',
          model: 'local-chat-completions',
          prompt,
          raw: 'Right.\nScore: 5',
          verdict: 5,
          score: 5,
        },
      ]),
    ).toEqual([
      {
        metric: 'llm_judge',
        model: 'local-chat-completions',
        order: null,
        system: 'You grade answers.',
        user: 'Question: 2 + 2?\nAnswer to grade: 4\nEnd with "Score: N".',
        raw: 'Right.\nScore: 5',
        options: null,
        verdict: '5',
        score: 5,
        error: null,
      },
    ]);
  });

  it('a plain prompt is the user text as sent, even one that starts like JSON', () => {
    const [plain, bracketed] = judgeCallsView([
      { metric: 'm', model: 'gguf', prompt: 'Rate it.\nScore:', raw: 'Score: 2', verdict: 2, score: 2 },
      {
        metric: 'm',
        model: 'gguf',
        prompt: '[1, 2] is a list. Rate it.',
        raw: 'Score: 1',
        verdict: 1,
        score: 1,
      },
    ]);
    expect(plain).toMatchObject({ system: null, user: 'Rate it.\nScore:' });
    expect(bracketed).toMatchObject({ system: null, user: '[1, 2] is a list. Rate it.' });
  });

  it("a log-likelihood verdict shows each option's log-likelihood with the one picked; −∞ was written as null", () => {
    const [call] = judgeCallsView([
      {
        metric: 'llm_judge',
        model: 'gguf',
        prompt: 'Rate it.\nScore:',
        raw: '2',
        verdict: 2,
        score: 2,
        loglikelihoods: { '1': -3.5, '2': -1.25, '3': null },
      },
    ]);
    expect(call.raw).toBeNull();
    expect(call.options).toEqual([
      { option: '1', logprob: -3.5, picked: false },
      { option: '2', logprob: -1.25, picked: true },
      { option: '3', logprob: Number.NEGATIVE_INFINITY, picked: false },
    ]);
    expect(call).toMatchObject({ verdict: '2', score: 2 });
  });

  it("keeps each juror's and each pairwise order's call, a label or JSON verdict as text, and the reason for none", () => {
    const calls = judgeCallsView([
      {
        metric: 'llm_judge',
        model: 'a',
        prompt: 'p',
        raw: 'A',
        verdict: 'A',
        score: 1,
        order: 'current-first',
      },
      {
        metric: 'llm_judge',
        model: 'a',
        prompt: 'q',
        raw: 'B',
        verdict: 'B',
        score: 0,
        order: 'baseline-first',
      },
      { metric: 'llm_judge', model: 'b', prompt: 'p', raw: '{"score": 3}', verdict: { score: 3 }, score: 3 },
      {
        metric: 'llm_judge',
        model: 'c',
        prompt: 'p',
        raw: 'I cannot decide.',
        verdict: null,
        score: null,
        error: 'unparseable verdict: no score found in the answer',
      },
    ]);
    expect(calls.map((call) => [call.model, call.order, call.verdict, call.score, call.error])).toEqual([
      ['a', 'current-first', 'A', 1, null],
      ['a', 'baseline-first', 'B', 0, null],
      ['b', null, '{"score":3}', 3, null],
      ['c', null, null, null, 'unparseable verdict: no score found in the answer'],
    ]);
  });

  it('a line without judge calls, or with a malformed entry, shows none for it', () => {
    expect(judgeCallsView(undefined)).toEqual([]);
    expect(judgeCallsView([{ metric: 'm' }])).toEqual([]);
  });
});

describe('correctness of a judged sample', () => {
  it('marks 0/1 metrics right or wrong, and a judge score neither (1 is the worst grade of a 1-5 rubric)', () => {
    expect(correctness(1, 'acc')).toBe(true);
    expect(correctness(0, 'exact_match')).toBe(false);
    expect(correctness(1, 'llm_judge')).toBeNull();
    expect(correctness(0, 'llm_judge')).toBeNull();
  });

  it("marks neither a TypeScript task's judge metric, which has a name of its own (the line's judge calls name it)", () => {
    const calls = [{ metric: 'quality', model: 'm', prompt: 'p', raw: '1', verdict: 1, score: 1 }];
    expect(correctness(1, 'quality', calls)).toBeNull();
    expect(correctness(1, 'acc', calls)).toBe(true);
  });
});
