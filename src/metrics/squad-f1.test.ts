import { describe, expect, it } from 'vitest';
import { squadF1, squadF1Single, squadNormalize } from './squad-f1.js';

// Expected values: the official SQuAD v2.0 script's compute_f1(a_gold, a_pred) (normalize_answer,
// get_tokens, compute_f1 as in HF evaluate's squad_v2), run under CPython 3.11 on this machine.
const CASES: Array<[gold: string, prediction: string, expected: number]> = [
  ['The Eiffel Tower', 'eiffel tower', 1.0],
  ['a cat sat on the mat', 'the cat sat', 0.6666666666666666],
  ['', '', 1],
  ['', 'something', 0],
  ['New York City', 'new-york city!', 0.4],
  ['1,000 people', '1000 people', 1.0],
  ['an apple a day', 'apple apple day', 0.8],
];

describe('squad_f1', () => {
  it.each(CASES)('gold %j vs prediction %j', (gold, prediction, expected) => {
    expect(squadF1Single(prediction, gold)).toBe(expected);
  });

  it('normalises as SQuAD does', () => {
    // normalize_answer("The  Cat, an apple!") == "cat apple"
    expect(squadNormalize('The  Cat, an apple!')).toBe('cat apple');
  });

  it('takes the best reference, and treats no reference as the empty answer', () => {
    expect(squadF1('eiffel tower', ['Paris', 'The Eiffel Tower'])).toBe(1);
    expect(squadF1('', [])).toBe(1);
    expect(squadF1('x', [])).toBe(0);
  });
});
