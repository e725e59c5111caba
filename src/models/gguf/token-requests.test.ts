import { describe, expect, it } from 'vitest';
import {
  cutAtStops,
  encodePair,
  makeDisjointWindow,
  moveTrailingWhitespace,
  rollingTokenWindows,
  scoringInput,
  type Tokenizer,
} from './token-requests.js';

/** One token per character (code point), BOS = 1: enough to check the bookkeeping. */
const charTokenizer: Tokenizer = {
  tokenize: (text) => [...text].map((char) => char.codePointAt(0) ?? 0),
  addBos: true,
  prefixToken: 1,
  bos: 1,
};

describe('lm-eval token request semantics', () => {
  it('moves trailing whitespace of the context onto the continuation', () => {
    expect(moveTrailingWhitespace('Answer: ', 'B')).toEqual(['Answer:', ' B']);
    expect(moveTrailingWhitespace('Answer:\n\n', 'B')).toEqual(['Answer:', '\n\nB']);
    expect(moveTrailingWhitespace('Answer:', ' B')).toEqual(['Answer:', ' B']);
  });

  it('encodes pairs as whole[len(enc(ctx)):], BOS first, and an empty context as the prefix token', () => {
    expect(encodePair(charTokenizer, 'ab ', 'c')).toEqual({ context: [1, 97, 98], continuation: [32, 99] });
    expect(encodePair(charTokenizer, '', 'hi')).toEqual({ context: [1], continuation: [104, 105] });
  });

  it('truncates from the left like HF: (ctx+cont)[-(L+1):][:-1]', () => {
    expect(scoringInput([1, 2, 3, 4], [5, 6], 3)).toEqual({
      input: [3, 4, 5],
      targets: [5, 6],
      scoredFrom: 1,
    });
    expect(scoringInput([1, 2], [3, 4, 5, 6], 2)).toEqual({ input: [4, 5], targets: [5, 6], scoredFrom: 0 });
    expect(scoringInput([1], [], 8)).toEqual({ input: [], targets: [], scoredFrom: 0 });
  });

  it('cuts rolling windows exactly as get_rolling_token_windows + make_disjoint_window', () => {
    // Worked by hand from lm-eval's utils.py: 20 tokens, prefix -100, max_seq_len 10, context_len 1.
    const tokens = Array.from({ length: 20 }, (_, i) => i);
    const windows = rollingTokenWindows(tokens, -100, 10, 1);
    expect(windows).toEqual([
      [
        [-100, 0, 1, 2, 3, 4, 5, 6, 7, 8],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      ],
      [
        [9, 10, 11, 12, 13, 14, 15, 16, 17, 18],
        [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
      ],
    ]);
    expect(windows.map(makeDisjointWindow)[1]).toEqual([[9], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]);
    // A last partial window keeps a full-length context but predicts only its new tokens.
    const partial = rollingTokenWindows(tokens.slice(0, 13), -100, 10, 1);
    expect(partial[1]).toEqual([
      [2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      [10, 11, 12],
    ]);
    expect(makeDisjointWindow(partial[1])).toEqual([
      [2, 3, 4, 5, 6, 7, 8, 9],
      [10, 11, 12],
    ]);
    // Every token is predicted exactly once.
    const predicted = rollingTokenWindows(tokens, -100, 7, 1).flatMap(([, target]) => target);
    expect(predicted).toEqual(tokens);
  });

  it('cuts generated text at the first occurrence of each stop, in order', () => {
    expect(cutAtStops('a\n\nb Question: c', ['\n\n', 'Question:'])).toBe('a');
    expect(cutAtStops('abc', [''])).toBe('abc');
  });
});
