import { describe, expect, it } from 'vitest';
import type { PromptLogprobs } from '../models/gguf/prompt-logprobs.js';
import { completionLogprobs, nextPosition, promptLogprobsList, scoredPositions } from './logprobs.js';

// A scored prompt [BOS, "▁Q"(10), "日"(11)] as the engine reports it, with two alternatives per position.
const scored: PromptLogprobs = {
  pieces: ['<s>', ' Q', '日'],
  logprobs: [null, -2.5, Number.NEGATIVE_INFINITY],
  ranks: [null, 3, 40],
  top: [
    null,
    [
      [12, -0.5, ' W'],
      [13, -1.5, ' A'],
    ],
    [
      [14, -0.25, '本'],
      [15, -0.75, '本'],
    ],
  ],
  next: {
    token: 10,
    logprob: -0.1,
    rank: 1,
    piece: ' Q',
    special: false,
    top: [
      [10, -0.1, ' Q'],
      [12, -3, ' W'],
    ],
  },
};
const tokens = [1, 10, 11];
const texts = ['', 'Q', '日'];
const dropped = ['', ' ', ''];

describe("vLLM's logprobs shapes", () => {
  it('the legacy object: own entry then the alternatives, at most logprobs + 1, offsets in code points, −∞ as −9999', () => {
    const prompt = scoredPositions(scored, tokens, { from: 0, to: 3, k: 2 }, texts, dropped);
    const generated = nextPosition(scored, 1);
    expect(completionLogprobs([...prompt, generated], 1)).toEqual({
      tokens: ['', 'Q', '日', ' Q'],
      token_logprobs: [null, -2.5, -9999, -0.1],
      // vLLM keeps the first `logprobs` + 1 entries of {own, top…}; alternatives lose the space their
      // position's token lost ("W", not " W").
      top_logprobs: [null, { Q: -2.5, W: -0.5 }, { 日: -9999, 本: -0.25 }, { ' Q': -0.1 }],
      text_offset: [0, 0, 1, 2],
    });
  });

  it('equal texts keep the last value, as a Python dict built from the entries does', () => {
    const prompt = scoredPositions(scored, tokens, { from: 2, to: 3, k: 2 }, texts, dropped);
    expect(completionLogprobs(prompt, 2).top_logprobs).toEqual([{ 日: -9999, 本: -0.75 }]);
  });

  it('prompt_logprobs: null first, then the prompt token with its rank and the top k ranked 1..k', () => {
    const prompt = scoredPositions(scored, tokens, { from: 0, to: 3, k: 2 }, texts, dropped);
    expect(promptLogprobsList(prompt)).toEqual([
      null,
      {
        10: { logprob: -2.5, rank: 3, decoded_token: 'Q' },
        12: { logprob: -0.5, rank: 1, decoded_token: 'W' },
        13: { logprob: -1.5, rank: 2, decoded_token: 'A' },
      },
      {
        11: { logprob: -9999, rank: 40, decoded_token: '日' },
        14: { logprob: -0.25, rank: 1, decoded_token: '本' },
        15: { logprob: -0.75, rank: 2, decoded_token: '本' },
      },
    ]);
  });

  it('a prompt token among the top k appears once, with its top-k rank', () => {
    const greedy: PromptLogprobs = {
      ...scored,
      logprobs: [null, -0.5, -0.25],
      ranks: [null, 1, 1],
      top: [null, [[10, -0.5, ' Q']], [[11, -0.25, '日']]],
    };
    const prompt = scoredPositions(greedy, tokens, { from: 0, to: 3, k: 1 }, texts, dropped);
    expect(promptLogprobsList(prompt)).toEqual([
      null,
      { 10: { logprob: -0.5, rank: 1, decoded_token: 'Q' } },
      { 11: { logprob: -0.25, rank: 1, decoded_token: '日' } },
    ]);
    expect(completionLogprobs(prompt, 1).top_logprobs).toEqual([null, { Q: -0.5 }, { 日: -0.25 }]);
  });
});
