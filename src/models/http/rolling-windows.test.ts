import { describe, expect, it } from 'vitest';
import { rollingWindows } from './rolling-windows.js';

/**
 * lm-eval's own gold windows (tests/test_utils.py, test_get_rolling_token_windows_v1: 34 tokens,
 * prefix -100, max_seq_len 10, context_len 1), made disjoint as its make_disjoint_window does
 * (context = input[: len(input) - (len(pred) - 1)], test_make_disjoint_window).
 */
const lmEvalGold: Array<[number[], number[]]> = [
  [
    [-100, 0, 1, 2, 3, 4, 5, 6, 7, 8],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  ],
  [
    [9, 10, 11, 12, 13, 14, 15, 16, 17, 18],
    [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
  ],
  [
    [19, 20, 21, 22, 23, 24, 25, 26, 27, 28],
    [20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
  ],
  [
    [23, 24, 25, 26, 27, 28, 29, 30, 31, 32],
    [30, 31, 32, 33],
  ],
];

function disjoint([input, pred]: [number[], number[]]): { context: number[]; continuation: number[] } {
  return { context: input.slice(0, input.length - (pred.length - 1)), continuation: pred };
}

describe('rollingWindows', () => {
  it('matches lm-eval’s rolling windows made disjoint', () => {
    const tokens = Array.from({ length: 34 }, (_, i) => i);
    const windows = rollingWindows(tokens, -100, 10);
    expect(windows).toEqual(lmEvalGold.map(disjoint));
    // Every token is predicted exactly once, in order.
    expect(windows.flatMap((window) => window.continuation)).toEqual(tokens);
  });

  it('gives one window on the prefix for a text shorter than max_length, and none for no tokens', () => {
    expect(rollingWindows([7, 8, 9], 1, 10)).toEqual([{ context: [1], continuation: [7, 8, 9] }]);
    expect(rollingWindows([], 1, 10)).toEqual([]);
  });

  it('an exact multiple of max_length needs no short last window', () => {
    const windows = rollingWindows([0, 1, 2, 3], 9, 2);
    expect(windows).toEqual([
      { context: [9], continuation: [0, 1] },
      { context: [1], continuation: [2, 3] },
    ]);
  });
});
