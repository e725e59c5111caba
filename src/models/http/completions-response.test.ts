import { describe, expect, it } from 'vitest';
import {
  type CompletionChoice,
  codePoints,
  echoedPromptTokens,
  NoPromptLogprobs,
  parseCompletionsResponse,
  scoreTextChoice,
  scoreTokenChoice,
  usageTokens,
} from './completions-response.js';
import { ResponseShapeError } from './http-client.js';

type Tops = Array<Record<string, number> | null>;

describe('parseCompletionsResponse', () => {
  // OpenAI's documented completion object: id, object, created, model, choices[{text, index, logprobs, finish_reason}], usage.
  const body = {
    id: 'cmpl-1',
    object: 'text_completion',
    created: 1700000000,
    model: 'm',
    choices: [
      { text: ' b', index: 1, logprobs: null, finish_reason: 'length' },
      { text: ' a', index: 0, logprobs: null, finish_reason: 'stop' },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  };

  it('returns the choices sorted by index (lm-eval sorts by itemgetter("index"))', () => {
    const parsed = parseCompletionsResponse(body, 2);
    expect(parsed.choices.map((choice) => choice.text)).toEqual([' a', ' b']);
    expect(parsed.usage).toEqual({ prompt_tokens: 5, completion_tokens: 2 });
  });

  it('rejects a choice count or index set that does not match the prompts sent', () => {
    expect(() => parseCompletionsResponse(body, 3)).toThrow(
      'the response has 2 choices (indices 0, 1) for 3 prompts',
    );
    const duplicate = { ...body, choices: [body.choices[1], { ...body.choices[0], index: 0 }] };
    expect(() => parseCompletionsResponse(duplicate, 2)).toThrow('(indices 0, 0) for 2 prompts');
    expect(() => parseCompletionsResponse({ choices: [] }, 1)).toThrow('(indices none) for 1 prompts');
  });

  it('rejects a malformed body naming the field', () => {
    expect(() => parseCompletionsResponse({}, 1)).toThrow(/malformed completions response: choices/);
    expect(() => parseCompletionsResponse(null, 1)).toThrow(/malformed completions response: \(root\)/);
    const badLogprob = {
      choices: [{ index: 0, logprobs: { tokens: ['a'], token_logprobs: ['x'] } }],
    };
    expect(() => parseCompletionsResponse(badLogprob, 1)).toThrow(/choices\.0\.logprobs\.token_logprobs\.0/);
    expect(() => parseCompletionsResponse({ choices: [{ index: -1 }] }, 1)).toThrow(ResponseShapeError);
  });
});

describe('usageTokens', () => {
  it('reads OpenAI usage, with reasoning tokens from completion_tokens_details or beside (SGLang)', () => {
    expect(usageTokens({ usage: { prompt_tokens: 9, completion_tokens: 4 } })).toEqual({ in: 9, out: 4 });
    expect(
      usageTokens({
        usage: { prompt_tokens: 9, completion_tokens: 4, completion_tokens_details: { reasoning_tokens: 3 } },
      }),
    ).toEqual({ in: 9, out: 4, reasoning: 3 });
    expect(usageTokens({ usage: { prompt_tokens: 9, completion_tokens: 4, reasoning_tokens: 2 } })).toEqual({
      in: 9,
      out: 4,
      reasoning: 2,
    });
  });

  it('counts nothing for a missing usage', () => {
    expect(usageTokens({})).toEqual({ in: 0, out: 0 });
    expect(usageTokens({ usage: null })).toEqual({ in: 0, out: 0 });
    expect(usageTokens({ usage: { prompt_tokens: 3, completion_tokens: null } })).toEqual({ in: 3, out: 0 });
  });
});

describe('codePoints (the unit of Python text offsets)', () => {
  it('counts a surrogate pair as one', () => {
    expect(codePoints('abc')).toBe(3);
    expect(codePoints('é')).toBe(1);
    expect(codePoints('a😀b')).toBe(3);
    expect('a😀b'.length).toBe(4);
  });
});

describe('scoreTokenChoice (lm-eval parse_logprobs: sum(token_logprobs[ctxlen:-1]))', () => {
  // Prompt of 4 token ids, echo on, max_tokens 1: 5 tokens, the first with a null log-probability.
  const choice = (values: Array<number | null>, tops: Tops | null, tokens?: string[]): CompletionChoice => ({
    index: 0,
    text: 'x',
    logprobs: {
      tokens: tokens ?? values.map((_, i) => `t${i}`),
      token_logprobs: values,
      top_logprobs: tops,
    },
  });
  const tops: Tops = [null, { a: -1 }, { b: -2 }, { c: -3 }, { d: -0.5 }];

  it('sums the continuation positions and drops the generated token', () => {
    expect(scoreTokenChoice(choice([null, -1, -2, -3, -0.5], tops), [1, 10, 11, 12], 2)).toEqual({
      logprob: -5,
      isGreedy: true,
    });
    expect(scoreTokenChoice(choice([null, -1, -2, -3, -0.5], tops), [1, 10, 11, 12], 3)).toEqual({
      logprob: -3,
      isGreedy: true,
    });
  });

  it('is not greedy when a continuation token is below the best of its top_logprobs', () => {
    const other: Tops = [null, { a: -1 }, { b: -2, x: -0.25 }, { c: -3 }, { d: -0.5 }];
    expect(scoreTokenChoice(choice([null, -1, -2, -3, -0.5], other), [1, 10, 11, 12], 2).isGreedy).toBe(
      false,
    );
    // Without top_logprobs greediness cannot be shown: not greedy.
    expect(scoreTokenChoice(choice([null, -1, -2, -3, -0.5], null), [1, 10, 11, 12], 2).isGreedy).toBe(false);
  });

  it('fails when echo was ignored (only the generated token has a log-probability)', () => {
    expect(() => scoreTokenChoice(choice([-0.5], null), [1, 10, 11, 12], 2)).toThrow(NoPromptLogprobs);
    expect(() => scoreTokenChoice({ index: 0 }, [1, 2], 1)).toThrow(NoPromptLogprobs);
  });

  it('rejects a server that lies: wrong length, positive or NaN values, other token ids, null in the continuation', () => {
    expect(() => scoreTokenChoice(choice([null, -1, -2, -0.5], null), [1, 10, 11, 12], 2)).toThrow(
      /the echo covers 3 prompt tokens/,
    );
    expect(() => scoreTokenChoice(choice([null, -1, 2, -3, -0.5], null), [1, 10, 11, 12], 2)).toThrow(
      /above 0/,
    );
    expect(() =>
      scoreTokenChoice(choice([null, -1, Number.NaN, -3, -0.5], null), [1, 10, 11, 12], 2),
    ).toThrow(/not a finite number/);
    const ids = ['token_id:1', 'token_id:10', 'token_id:99', 'token_id:12', 'token_id:5'];
    expect(() => scoreTokenChoice(choice([null, -1, -2, -3, -0.5], null, ids), [1, 10, 11, 12], 2)).toThrow(
      'echoed token 2 is token_id:99, but the prompt sent has 11',
    );
    expect(() => scoreTokenChoice(choice([null, -1, null, -3, -0.5], null), [1, 10, 11, 12], 2)).toThrow(
      'prompt token 2 has no log-probability',
    );
  });
});

describe('scoreTextChoice (text prompt, echoed tokens spell it)', () => {
  // vLLM echo for a Llama model: BOS "<s>" first, null log-probability; then the prompt; then one generated token.
  const tokens = ['<s>', 'The', ' sky', ' is', ' blue', '.'];
  const values = [null, -4, -2, -1, -0.5, -0.25];
  const tops: Tops = [null, { The: -4 }, { ' sky': -2 }, { ' is': -1 }, { ' blue': -0.5 }, { '.': -0.25 }];
  const prompt = 'The sky is blue';
  const choice = (over: Partial<NonNullable<CompletionChoice['logprobs']>> = {}): CompletionChoice => ({
    index: 0,
    text: `${prompt}.`,
    logprobs: { tokens, token_logprobs: values, top_logprobs: tops, ...over },
  });

  it('sums the tokens that end after the context, without the generated one', () => {
    expect(scoreTextChoice(choice(), prompt, 'The sky'.length)).toEqual({ logprob: -1.5, isGreedy: true });
  });

  it('counts a token straddling the context boundary with the continuation', () => {
    expect(scoreTextChoice(choice(), prompt, 'The sk'.length)).toEqual({ logprob: -3.5, isGreedy: true });
  });

  it('measures the context in code points, as the server does', () => {
    const astral = ['<s>', '😀', ' a', '!'];
    const result = scoreTextChoice(
      {
        index: 0,
        text: '😀 a!',
        logprobs: { tokens: astral, token_logprobs: [null, -3, -1, -2], top_logprobs: null },
      },
      '😀 a',
      1,
    );
    expect(result).toEqual({ logprob: -1, isGreedy: false });
  });

  it('fails when echo was ignored', () => {
    expect(() => scoreTextChoice({ index: 0, text: '.', logprobs: null }, prompt, 7)).toThrow(
      NoPromptLogprobs,
    );
    expect(() =>
      scoreTextChoice(
        { index: 0, text: '.', logprobs: { tokens: ['.'], token_logprobs: [-0.25] } },
        prompt,
        7,
      ),
    ).toThrow(/echo was ignored/);
  });

  it('rejects echoed tokens that spell another text', () => {
    const other = ['<s>', 'The', ' sea', ' is', ' blue', '.'];
    expect(() => scoreTextChoice(choice({ tokens: other }), prompt, 7)).toThrow(/do not spell the prompt/);
  });

  it('rejects a null log-probability in the continuation (empty context, no BOS)', () => {
    const noBos = {
      index: 0,
      text: 'Hi.',
      logprobs: { tokens: ['Hi', '.'], token_logprobs: [null, -1] },
    };
    expect(() => scoreTextChoice(noBos, 'Hi', 0)).toThrow(/the context is empty and the server added no BOS/);
  });

  it('rejects a context that covers the whole prompt', () => {
    expect(() => scoreTextChoice(choice(), prompt, prompt.length)).toThrow(
      'no prompt token covers the continuation',
    );
  });
});

describe('echoedPromptTokens', () => {
  it('counts echoed tokens minus the generated one, or prompt_logprobs entries', () => {
    expect(
      echoedPromptTokens({ index: 0, logprobs: { tokens: ['a', 'b', 'c'], token_logprobs: [null, -1, -1] } }),
    ).toBe(2);
    expect(echoedPromptTokens({ index: 0, prompt_logprobs: [null, { '5': { logprob: -1 } }] })).toBe(2);
    expect(echoedPromptTokens({ index: 0 })).toBe(0);
  });
});
