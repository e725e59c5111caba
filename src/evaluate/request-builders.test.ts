import { describe, expect, test } from 'vitest';
import { choiceContinuations } from './request-builders.js';

describe('choiceContinuations', () => {
  test("delimiter + choice, as lm-eval's construct_requests builds each continuation", () => {
    expect(choiceContinuations()(' ', ['A', 'B', 'C', 'D'])).toEqual([' A', ' B', ' C', ' D']);
    expect(choiceContinuations()('', ['yes', 'no'])).toEqual(['yes', 'no']);
  });

  test('a doc with the same choices list and delimiter as the doc before shares its strings', () => {
    const continuations = choiceContinuations();
    const literal = ['A', 'B', 'C', 'D'];
    const first = continuations(' ', literal);
    expect(continuations(' ', literal)).toBe(first);
    // Another list with the same items, or another delimiter, is built anew (and then shared in turn).
    const equal = ['A', 'B', 'C', 'D'];
    const second = continuations(' ', equal);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    const third = continuations('\n', equal);
    expect(third).toEqual(['\nA', '\nB', '\nC', '\nD']);
    expect(continuations('\n', equal)).toBe(third);
  });
});
