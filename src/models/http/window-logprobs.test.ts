import { describe, expect, it } from 'vitest';
import { NoPromptLogprobs, type PromptLogprobs } from './completions-response.js';
import { ResponseShapeError } from './http-client.js';
import { windowLogprobsFromEcho, windowLogprobsFromPromptLogprobs } from './window-logprobs.js';

/**
 * A token window sent as token ids with echo (OpenAI's legacy logprobs: one entry per prompt token, null
 * for the first, then the generated token) or with vLLM's prompt_logprobs (one entry per prompt token).
 */
describe('token window log-probabilities', () => {
  const tokens = [1, 306, 4966, 263];

  it('reads the scored positions from an echo, dropping the generated token', () => {
    const choice = {
      index: 0,
      text: 'x',
      logprobs: {
        tokens: ['<s>', 'I', ' love', ' a', ' cat'],
        token_logprobs: [null, -4.5, -2.25, -1.5, -0.75],
      },
    };
    expect(windowLogprobsFromEcho(choice, tokens, 1)).toEqual([-4.5, -2.25, -1.5]);
    expect(windowLogprobsFromEcho(choice, tokens, 3)).toEqual([-1.5]);
  });

  it('refuses an echo that was ignored or that covers another number of tokens', () => {
    const ignored = { index: 0, text: ' cat', logprobs: { tokens: [' cat'], token_logprobs: [-0.75] } };
    expect(() => windowLogprobsFromEcho(ignored, tokens, 1)).toThrow(NoPromptLogprobs);
    const short = {
      index: 0,
      text: 'x',
      logprobs: { tokens: ['I', ' love', ' a'], token_logprobs: [null, -1, -1] },
    };
    expect(() => windowLogprobsFromEcho(short, tokens, 1)).toThrow(
      'the echo covers 2 prompt tokens (3 tokens with the generated one) for a prompt of 4 tokens sent',
    );
  });

  it('checks echoed token ids against the window when the server returns them (token_id:N)', () => {
    const choice = {
      index: 0,
      text: 'x',
      logprobs: {
        tokens: ['token_id:1', 'token_id:306', 'token_id:4967', 'token_id:263', 'token_id:7'],
        token_logprobs: [null, -1, -1, -1, -1],
      },
    };
    expect(() => windowLogprobsFromEcho(choice, tokens, 1)).toThrow(
      'echoed token 2 is token_id:4967, but the prompt sent has 4966',
    );
  });

  it('reads vLLM’s prompt_logprobs by token id and needs every scored position', () => {
    const entries: PromptLogprobs = [
      null,
      { '306': { logprob: -4.5, rank: 12 }, '450': { logprob: -1.1, rank: 1 } },
      { '4966': { logprob: -2.25, rank: 1 } },
      { '263': { logprob: -1.5, rank: 2 }, '278': { logprob: -1.0, rank: 1 } },
    ];
    expect(windowLogprobsFromPromptLogprobs(entries, tokens, 1)).toEqual([-4.5, -2.25, -1.5]);
    expect(() => windowLogprobsFromPromptLogprobs(entries.slice(0, 3), tokens, 1)).toThrow(
      'prompt_logprobs has 3 entries for a prompt of 4 tokens',
    );
    const missing: PromptLogprobs = [...entries.slice(0, 3), { '278': { logprob: -1.0, rank: 1 } }];
    expect(() => windowLogprobsFromPromptLogprobs(missing, tokens, 1)).toThrow(
      new ResponseShapeError('prompt token 3 has no log-probability'),
    );
  });
});
