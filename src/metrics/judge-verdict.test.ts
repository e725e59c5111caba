import { describe, expect, it } from 'vitest';
import { readLoglikelihoodVerdict, readVerdict, verdictOptions } from './judge-verdict.js';
import { judgeConfigSchema } from './llm-judge-config.js';

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

describe('log-likelihood verdicts', () => {
  const fivePoint = { type: 'score', min: 1, max: 5, by: 'loglikelihood' } as const;
  const labelled = { type: 'label', labels: { correct: 1, incorrect: 0 }, by: 'loglikelihood' } as const;

  it("scores each whole number of the scale, or each label, after one space (lm-eval's target_delimiter)", () => {
    expect(verdictOptions(fivePoint)).toEqual(
      ['1', '2', '3', '4', '5'].map((text) => ({ text, continuation: ` ${text}` })),
    );
    expect(verdictOptions({ type: 'score', min: -1, max: 1 }).map((option) => option.continuation)).toEqual([
      ' -1',
      ' 0',
      ' 1',
    ]);
    expect(verdictOptions(labelled)).toEqual([
      { text: 'correct', continuation: ' correct' },
      { text: 'incorrect', continuation: ' incorrect' },
    ]);
  });

  it('picks the most likely option, the first of equals, with its score', () => {
    expect(readLoglikelihoodVerdict([-4, -1.5, -2, -9, -3], fivePoint)).toEqual({
      ok: true,
      score: 2,
      verdict: 2,
      answer: '2',
    });
    expect(readLoglikelihoodVerdict([-2, -2, -2, -2, -2], fivePoint)).toMatchObject({
      score: 1,
      answer: '1',
    });
    expect(readLoglikelihoodVerdict([-7, -0.5], labelled)).toEqual({
      ok: true,
      score: 0,
      verdict: 'incorrect',
      answer: 'incorrect',
    });
    expect(readLoglikelihoodVerdict([Number.NEGATIVE_INFINITY, -30], labelled)).toMatchObject({ score: 0 });
  });

  it('has no verdict without one log-likelihood per option, or with one that is not a number', () => {
    expect(readLoglikelihoodVerdict([-1, -2], fivePoint)).toEqual({
      ok: false,
      reason: '2 log-likelihoods for 5 options',
    });
    expect(readLoglikelihoodVerdict([-1, Number.NaN], labelled)).toEqual({
      ok: false,
      reason: 'option incorrect has no log-likelihood',
    });
  });

  it('refuses what a log-likelihood verdict cannot have, naming the field', () => {
    const issues = (extra: Record<string, unknown>) => {
      const parsed = judgeConfigSchema.safeParse({ model: 'gguf', prompt: 'Score:', ...extra });
      return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
    };
    expect(issues({ verdict: fivePoint })).toEqual([]);
    expect(issues({ verdict: labelled })).toEqual([]);
    expect(issues({ verdict: { ...fivePoint, max: 5.5 } })).toEqual([
      [
        'verdict.max',
        'a loglikelihood verdict scores each whole number of the scale: min and max must be integers',
      ],
    ]);
    expect(issues({ verdict: { ...fivePoint, max: 200 } })).toEqual([
      ['verdict.max', 'a loglikelihood verdict scores each whole number of the scale, at most 101 of them'],
    ]);
    expect(issues({ verdict: { ...fivePoint, pattern: 'S: (\\d)' } })).toEqual([
      ['verdict.pattern', 'a loglikelihood verdict reads no answer: pattern is for by: generate'],
    ]);
    expect(issues({ verdict: fivePoint, system: 'Be strict.' })).toEqual([
      [
        'system',
        'a loglikelihood verdict scores the options as continuations of the prompt text, not of a chat: put the system text in the prompt',
      ],
    ]);
    expect(issues({ verdict: fivePoint, generation_kwargs: { max_gen_toks: 4 } })).toEqual([
      [
        'generation_kwargs',
        'a loglikelihood verdict generates nothing: generation_kwargs is for by: generate',
      ],
    ]);
    // A JSON verdict is read from an answer only.
    expect(issues({ verdict: { type: 'json', schema: {}, field: 'score', by: 'loglikelihood' } })).toEqual([
      ['verdict', 'Unrecognized key: "by"'],
    ]);
  });
});

describe('log-likelihood verdicts: options a tokenizer cannot tell apart', () => {
  const issues = (verdict: Record<string, unknown>) => {
    const parsed = judgeConfigSchema.safeParse({ model: 'gguf', prompt: 'Score:', verdict });
    return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('a judge that writes 10 on a 1-10 scale, its digits one token each, has 1 picked: such a scale is refused', () => {
    // A digit-per-token judge (Llama 2, Mistral, Qwen): log P(" 10") = log P(" 1") + log P("0" | " 1"), so
    // " 1" always outscores " 10" however sure the judge is of 10.
    const logP1 = Math.log(0.9); // the first token of the judge's answer "10"
    const logP0Given1 = Math.log(0.95);
    const loglikelihoods = [logP1, -20, -20, -20, -20, -20, -20, -20, -20, logP1 + logP0Given1];
    const tenPoint = { type: 'score', min: 1, max: 10, by: 'loglikelihood' } as const;
    expect(readLoglikelihoodVerdict(loglikelihoods, tenPoint)).toMatchObject({ score: 1 });
    expect(issues(tenPoint)).toEqual([
      [
        'verdict.max',
        "a loglikelihood verdict cannot tell option 1 from option 10, which begins with it (1's log-likelihood counts every answer that starts with it); use options none of which begins another (a scale of single digits such as 1–9, or labels) or by: generate",
      ],
    ]);
    expect(issues({ type: 'score', min: 0, max: 9, by: 'loglikelihood' })).toEqual([]);
    expect(issues({ type: 'score', min: -5, max: 5, by: 'loglikelihood' })).toEqual([]);
    // by: generate reads the written answer whole: a 1-10 scale is fine.
    expect(issues({ type: 'score', min: 1, max: 10 })).toEqual([]);
  });

  it('refuses labels one of which begins another', () => {
    expect(issues({ type: 'label', labels: { A: 1, 'A+': 1.5, B: 0 }, by: 'loglikelihood' })).toEqual([
      [
        'verdict.labels',
        "a loglikelihood verdict cannot tell option A from option A+, which begins with it (A's log-likelihood counts every answer that starts with it); use options none of which begins another (a scale of single digits such as 1–9, or labels) or by: generate",
      ],
    ]);
    expect(issues({ type: 'label', labels: { correct: 1, incorrect: 0 }, by: 'loglikelihood' })).toEqual([]);
  });

  it('has no verdict when every option has log-likelihood -Infinity (no preference for the first)', () => {
    const fivePoint = { type: 'score', min: 1, max: 5, by: 'loglikelihood' } as const;
    expect(readLoglikelihoodVerdict(Array(5).fill(Number.NEGATIVE_INFINITY), fivePoint)).toEqual({
      ok: false,
      reason: 'every option has log-likelihood -Infinity',
    });
  });
});
