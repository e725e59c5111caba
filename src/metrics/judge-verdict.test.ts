import { describe, expect, it } from 'vitest';
import { readVerdict } from './judge-verdict.js';

const scale = { type: 'score', min: 1, max: 10 } as const;
const labels = { type: 'label', labels: { correct: 1, incorrect: 0 } } as const;

describe('readVerdict', () => {
  it('reads a score after "Score:" / "Rating" or in [[brackets]], or an answer that is only a number', () => {
    expect(readVerdict('The answer is good.\nScore: 8', scale)).toEqual({ ok: true, score: 8, verdict: 8 });
    expect(readVerdict('Rating: [[7]]', scale)).toEqual({ ok: true, score: 7, verdict: 7 });
    expect(readVerdict(' 9 ', scale)).toEqual({ ok: true, score: 9, verdict: 9 });
    expect(readVerdict('score = 6.5', scale)).toEqual({ ok: true, score: 6.5, verdict: 6.5 });
  });

  it('refuses a score outside the scale and an answer without one, saying why', () => {
    expect(readVerdict('Score: 11', scale)).toEqual({
      ok: false,
      reason: 'score 11 is outside the scale [1, 10]',
    });
    expect(readVerdict('I would give it eight out of ten', scale)).toEqual({
      ok: false,
      reason: 'no score found in the answer',
    });
    // "3 reasons" is not a score: without the keyword only a bare number counts.
    expect(readVerdict('There are 3 reasons it fails', scale).ok).toBe(false);
  });

  it('takes the first group of a custom pattern', () => {
    const spec = { ...scale, pattern: 'VERDICT<(\\d+)>' };
    expect(readVerdict('blah VERDICT<4> blah Score: 9', spec)).toEqual({ ok: true, score: 4, verdict: 4 });
  });

  it('reads a label as the whole answer or as the one label named in it, and refuses two', () => {
    expect(readVerdict('Correct.', labels)).toEqual({ ok: true, score: 1, verdict: 'correct' });
    expect(readVerdict('The response is INCORRECT because…', labels)).toEqual({
      ok: true,
      score: 0,
      verdict: 'incorrect',
    });
    // "incorrect" contains "correct", but not as a word: only one label is named.
    expect(readVerdict('incorrect', labels)).toEqual({ ok: true, score: 0, verdict: 'incorrect' });
    expect(readVerdict('It is correct in part and incorrect in part', labels)).toEqual({
      ok: false,
      reason: 'ambiguous: the answer names correct and incorrect',
    });
    expect(readVerdict('no idea', labels).ok).toBe(false);
  });

  it('reads a JSON verdict (fenced or bare), checks it against the schema and takes the field', () => {
    const spec = {
      type: 'json',
      field: 'score',
      schema: {
        type: 'object',
        required: ['score', 'reason'],
        properties: { score: { type: 'integer', minimum: 0, maximum: 5 }, reason: { type: 'string' } },
      },
    } as const;
    const raw = 'Here you go:\n```json\n{"score": 4, "reason": "mostly right"}\n```';
    expect(readVerdict(raw, spec)).toEqual({
      ok: true,
      score: 4,
      verdict: { score: 4, reason: 'mostly right' },
    });
    expect(readVerdict('{"score": 7, "reason": "x"}', spec)).toEqual({
      ok: false,
      reason: 'the JSON does not match the schema: $.score is above 5',
    });
    expect(readVerdict('{"score": 3}', spec)).toEqual({
      ok: false,
      reason: 'the JSON does not match the schema: $.reason is missing',
    });
    expect(readVerdict('{"score": 3, "reason": ', spec).ok).toBe(false);
    expect(readVerdict('no json here', spec)).toEqual({ ok: false, reason: 'no JSON object in the answer' });
  });
});
