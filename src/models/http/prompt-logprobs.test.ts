import { describe, expect, it } from 'vitest';
import type { PromptLogprobs } from './completions-response.js';
import { ResponseShapeError } from './http-client.js';
import { scoreTextPromptLogprobs, scoreTokenPromptLogprobs } from './prompt-logprobs.js';

/**
 * vLLM's prompt_logprobs with k = 1: per prompt token after the first, the prompt's own token (its rank
 * among the vocabulary) and, when it is not the top one, the top one at rank 1.
 */
function entry(
  id: number,
  text: string,
  logprob: number,
  rank: number,
  top?: [number, string, number],
): NonNullable<PromptLogprobs[number]> {
  const own = { [String(id)]: { logprob, rank, decoded_token: text } };
  return top ? { ...own, [String(top[0])]: { logprob: top[2], rank: 1, decoded_token: top[1] } } : own;
}

// "<s>The sky is blue": BOS id 1 (no entry: nothing conditions it), then ids 10..13.
const ids = [1, 10, 11, 12, 13];
const greedyEntries: PromptLogprobs = [
  null,
  entry(10, 'The', -4, 1),
  entry(11, ' sky', -2, 1),
  entry(12, ' is', -1, 1),
  entry(13, ' blue', -0.5, 1),
];

describe('scoreTokenPromptLogprobs', () => {
  it('sums positions [contextTokens, prompt length) and reads greediness from rank', () => {
    expect(scoreTokenPromptLogprobs(greedyEntries, ids, 3)).toEqual({ logprob: -1.5, isGreedy: true });
    expect(scoreTokenPromptLogprobs(greedyEntries, ids, 1)).toEqual({ logprob: -7.5, isGreedy: true });
    const missed = [...greedyEntries];
    missed[4] = entry(13, ' blue', -2.5, 2, [14, ' grey', -0.25]);
    expect(scoreTokenPromptLogprobs(missed, ids, 3)).toEqual({ logprob: -3.5, isGreedy: false });
  });

  it('picks the prompt token by id even when the top token is listed first', () => {
    const first = [...greedyEntries];
    first[3] = { '99': { logprob: -0.1, rank: 1 }, '12': { logprob: -3, rank: 7 } };
    expect(scoreTokenPromptLogprobs(first, ids, 3)).toEqual({ logprob: -3.5, isGreedy: false });
  });

  it('without ranks compares with the best log-probability', () => {
    const unranked: PromptLogprobs = [
      null,
      { '10': { logprob: -1 } },
      { '11': { logprob: -2 }, '5': { logprob: -1 } },
    ];
    expect(scoreTokenPromptLogprobs(unranked, [1, 10, 11], 1)).toEqual({ logprob: -3, isGreedy: false });
    expect(scoreTokenPromptLogprobs(unranked, [1, 10, 11], 2)).toEqual({ logprob: -2, isGreedy: false });
    expect(scoreTokenPromptLogprobs(unranked.slice(0, 2), [1, 10], 1)).toEqual({
      logprob: -1,
      isGreedy: true,
    });
  });

  it('rejects a server that lies: wrong entry count, missing prompt token, bad values, null in the continuation', () => {
    expect(() => scoreTokenPromptLogprobs(greedyEntries.slice(0, 4), ids, 3)).toThrow(
      'prompt_logprobs has 4 entries for a prompt of 5 tokens',
    );
    const lacking = [...greedyEntries];
    lacking[2] = entry(77, ' sea', -2, 1);
    expect(() => scoreTokenPromptLogprobs(lacking, ids, 1)).toThrow(
      "prompt_logprobs entry 2 lacks the prompt's token 11",
    );
    const positive = [...greedyEntries];
    positive[3] = entry(12, ' is', 0.5, 1);
    expect(() => scoreTokenPromptLogprobs(positive, ids, 3)).toThrow(/entry 3 \(token 12\).*above 0/);
    const infinite = [...greedyEntries];
    infinite[4] = entry(13, ' blue', Number.NEGATIVE_INFINITY, 1);
    expect(() => scoreTokenPromptLogprobs(infinite, ids, 3)).toThrow(/not a finite number/);
    const nulled = [...greedyEntries];
    nulled[3] = null;
    expect(() => scoreTokenPromptLogprobs(nulled, ids, 1)).toThrow('prompt token 3 has no log-probability');
    try {
      scoreTokenPromptLogprobs(lacking, ids, 1);
    } catch (error) {
      expect((error as ResponseShapeError).kind).toBe('bad answer');
    }
  });
});

describe('scoreTextPromptLogprobs', () => {
  const prompt = 'The sky is blue';

  it('scores the tokens that end after the context, skipping the BOS', () => {
    expect(scoreTextPromptLogprobs(greedyEntries, prompt, 'The sky'.length)).toEqual({
      logprob: -1.5,
      isGreedy: true,
    });
    // A token straddling the boundary counts with the continuation.
    expect(scoreTextPromptLogprobs(greedyEntries, prompt, 'The s'.length)).toEqual({
      logprob: -3.5,
      isGreedy: true,
    });
  });

  it('takes the entry ranked lowest as the prompt token (k = 1)', () => {
    const missed = [...greedyEntries];
    missed[3] = entry(12, ' is', -3, 4, [20, ' was', -0.5]);
    expect(scoreTextPromptLogprobs(missed, prompt, 'The sky'.length)).toEqual({
      logprob: -3.5,
      isGreedy: false,
    });
  });

  it('accepts the dummy-prefix space of SentencePiece decoded tokens', () => {
    const spaced = [...greedyEntries];
    spaced[1] = entry(10, ' The', -4, 1);
    expect(scoreTextPromptLogprobs(spaced, prompt, 'The sky'.length)).toEqual({
      logprob: -1.5,
      isGreedy: true,
    });
  });

  it('fails on an empty context without a BOS: the first token has no log-probability', () => {
    // No BOS: the first prompt token "The" has the null entry.
    const noBos: PromptLogprobs = [null, entry(11, ' sky', -2, 1)];
    expect(() => scoreTextPromptLogprobs(noBos, 'The sky', 0)).toThrow(
      /prompt token 0 has no log-probability: the context is empty/,
    );
    expect(scoreTextPromptLogprobs(noBos, 'The sky', 3)).toEqual({ logprob: -2, isGreedy: true });
  });

  it('rejects decoded tokens that do not spell the prompt, and a context covering it all', () => {
    const other = [...greedyEntries];
    other[2] = entry(11, ' sea', -2, 1);
    expect(() => scoreTextPromptLogprobs(other, prompt, 3)).toThrow(/do not spell the prompt/);
    expect(() => scoreTextPromptLogprobs(greedyEntries, prompt, prompt.length)).toThrow(
      'no prompt token covers the continuation (prompt_logprobs)',
    );
  });

  it('rejects a NaN log-probability', () => {
    const nan = [...greedyEntries];
    nan[4] = entry(13, ' blue', Number.NaN, 1);
    expect(() => scoreTextPromptLogprobs(nan, prompt, 7)).toThrow(ResponseShapeError);
  });
});
