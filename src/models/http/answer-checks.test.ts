import { describe, expect, it } from 'vitest';
import {
  badAnswer,
  checkEchoedTokenIds,
  checkEchoLogprobs,
  checkLogprob,
  echoedPromptStart,
  LOGPROB_TOLERANCE,
  spellsPrompt,
} from './answer-checks.js';
import { ResponseShapeError } from './http-client.js';

/** The error a check throws, so its kind and wording can be asserted. */
function thrown(run: () => unknown): ResponseShapeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseShapeError);
    return error as ResponseShapeError;
  }
  throw new Error('expected the check to throw');
}

describe('checkLogprob', () => {
  it('accepts 0, negatives and float32 rounding just above 0', () => {
    expect(() => checkLogprob(0, 'x')).not.toThrow();
    expect(() => checkLogprob(-1e9, 'x')).not.toThrow();
    expect(() => checkLogprob(LOGPROB_TOLERANCE, 'x')).not.toThrow();
  });

  it('rejects positive and non-finite values as a bad answer naming where', () => {
    const positive = thrown(() => checkLogprob(0.5, 'token 3 " a"'));
    expect(positive.kind).toBe('bad answer');
    expect(positive.message).toContain('token 3 " a"');
    expect(positive.message).toContain('above 0');
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const error = thrown(() => checkLogprob(value, 'here'));
      expect(error.kind).toBe('bad answer');
      expect(error.message).toContain('not a finite number');
    }
  });

  it('badAnswer makes a bad-answer ResponseShapeError', () => {
    const error = badAnswer('why');
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.kind).toBe('bad answer');
    expect(error.message).toBe('why');
  });
});

describe('checkEchoLogprobs (OpenAI legacy logprobs: tokens, token_logprobs, top_logprobs, text_offset)', () => {
  // An echo as vLLM sends it: the first prompt token has a null log-probability, top_logprobs null there.
  const echo = {
    tokens: ['The', ' sky', ' is'],
    token_logprobs: [null, -2.5, -0.75],
    top_logprobs: [null, { ' sky': -2.5 }, { ' is': -0.75, ' was': -1 }] as Array<Record<
      string,
      number
    > | null>,
    text_offset: [0, 3, 7],
  };

  it('accepts lists of one length with a null first value', () => {
    expect(() => checkEchoLogprobs(echo)).not.toThrow();
    expect(() => checkEchoLogprobs({ tokens: ['a'], token_logprobs: [-1] })).not.toThrow();
  });

  it('rejects lists of different lengths, naming every length', () => {
    const short = thrown(() => checkEchoLogprobs({ ...echo, token_logprobs: [null, -2.5] }));
    expect(short.kind).toBe('bad answer');
    expect(short.message).toContain('tokens 3, token_logprobs 2, text_offset 3, top_logprobs 3');
    expect(thrown(() => checkEchoLogprobs({ ...echo, text_offset: [0, 3] })).message).toContain(
      'text_offset 2',
    );
    expect(thrown(() => checkEchoLogprobs({ ...echo, top_logprobs: [null] })).message).toContain(
      'top_logprobs 1',
    );
  });

  it('rejects a positive or non-finite value in token_logprobs or top_logprobs', () => {
    const positive = thrown(() => checkEchoLogprobs({ ...echo, token_logprobs: [null, 0.25, -1] }));
    expect(positive.message).toContain('token 1 " sky"');
    const nan = thrown(() =>
      checkEchoLogprobs({ ...echo, top_logprobs: [null, { ' sky': -2.5 }, { ' is': Number.NaN }] }),
    );
    expect(nan.message).toContain('top_logprobs entry of token 2');
  });
});

describe('echoedPromptStart', () => {
  it('finds the prompt at token 0 when the server adds nothing', () => {
    expect(echoedPromptStart(['Once', ' upon', ' a', ' time'], 3, 'Once upon a')).toEqual({
      start: 0,
      skip: 0,
    });
  });

  it('skips one leading BOS token (vLLM echoes "<s>" for Llama)', () => {
    expect(echoedPromptStart(['<s>', 'Once', ' upon', ' a'], 3, 'Once upon')).toEqual({ start: 1, skip: 0 });
  });

  it('skips the dummy-prefix space the first prompt token carries', () => {
    expect(echoedPromptStart(['<s>', ' Once', ' upon', '!'], 3, 'Once upon')).toEqual({ start: 1, skip: 1 });
    // An empty special token (a BOS spelled "") is passed over as well.
    expect(echoedPromptStart(['', ' Once', ' upon', '!'], 3, 'Once upon')).toEqual({ start: 1, skip: 1 });
  });

  it('rejects tokens that spell a different text, or more than one token before the prompt', () => {
    const other = thrown(() => echoedPromptStart(['Once', ' upon', '!'], 2, 'Twice upon'));
    expect(other.kind).toBe('bad answer');
    expect(other.message).toContain('do not spell the prompt');
    expect(other.message).toContain('"Once upon"');
    // Two leading tokens before the prompt: the server scored a longer text.
    expect(() => echoedPromptStart(['<s>', 'Hi', ' Once', '!'], 3, ' Once')).toThrow(ResponseShapeError);
    // Non-whitespace carried before the prompt inside its first token.
    expect(() => echoedPromptStart(['xOnce', ' upon', '!'], 2, 'Once upon')).toThrow(/do not spell/);
  });

  it('advises token ids when the server spells parts of characters as U+FFFD', () => {
    const error = thrown(() => echoedPromptStart(['caf', '\uFFFD', '\uFFFD', '!'], 3, 'café'));
    expect(error.message).toContain('tokenized_requests=true');
    const lone = thrown(() => echoedPromptStart(['a', '\uD83D', '!'], 2, 'a😀'));
    expect(lone.message).toContain('parts of characters');
    expect(thrown(() => echoedPromptStart(['x', '!'], 1, 'y')).message).not.toContain('parts of characters');
  });
});

describe('spellsPrompt', () => {
  it('accepts the prompt, a suffix of it, or the prompt after leading whitespace', () => {
    expect(spellsPrompt('Once upon', 'Once upon')).toBe(true);
    expect(spellsPrompt(' upon', 'Once upon')).toBe(true);
    expect(spellsPrompt(' Once upon', 'Once upon')).toBe(true);
    expect(spellsPrompt('\n Once upon', 'Once upon')).toBe(true);
  });

  it('rejects other text', () => {
    expect(spellsPrompt('xOnce upon', 'Once upon')).toBe(false);
    expect(spellsPrompt('Once upon!', 'Once upon')).toBe(false);
    expect(spellsPrompt('Twice', 'Once upon')).toBe(false);
  });
});

describe('checkEchoedTokenIds', () => {
  it('accepts one token per prompt token plus the generated one', () => {
    expect(() =>
      checkEchoedTokenIds({ tokens: ['a', 'b', 'c', 'gen'], token_logprobs: [null, -1, -1, -1] }, [5, 6, 7]),
    ).not.toThrow();
    // vLLM's return_tokens_as_token_ids spelling, matching id by id.
    expect(() =>
      checkEchoedTokenIds(
        { tokens: ['token_id:1', 'token_id:42', 'token_id:9'], token_logprobs: [null, -1, -1] },
        [1, 42],
      ),
    ).not.toThrow();
  });

  it('rejects an echo of the wrong length', () => {
    const error = thrown(() =>
      checkEchoedTokenIds({ tokens: ['a', 'b', 'gen'], token_logprobs: [null, -1, -1] }, [5, 6, 7]),
    );
    expect(error.kind).toBe('bad answer');
    expect(error.message).toBe(
      'the echo covers 2 prompt tokens (3 tokens with the generated one) for a prompt of 3 tokens sent',
    );
  });

  it('rejects token ids that differ from the prompt sent, naming the first', () => {
    const error = thrown(() =>
      checkEchoedTokenIds(
        {
          tokens: ['token_id:1', 'token_id:43', 'token_id:8', 'token_id:9'],
          token_logprobs: [null, -1, -1, -1],
        },
        [1, 42, 7],
      ),
    );
    expect(error.message).toBe('echoed token 1 is token_id:43, but the prompt sent has 42');
  });
});
