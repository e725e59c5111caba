import { describe, expect, it } from 'vitest';
import { extractChoice } from './extract-choice.js';
import { jsonlExactMatch } from './jsonl-exact-match.js';
import { multipleChoiceLetter } from './multiple-choice.js';
import { rougeLF1, rougeLTokens } from './rouge-l.js';
import { substringContains } from './substring-contains.js';

// assay's own JSONL metrics: the expected values follow from their definitions (worked in the comments).
describe('jsonl_exact_match', () => {
  it('compares after lowercasing and collapsing whitespace', () => {
    expect(jsonlExactMatch('  The   Answer\n', ['the answer'])).toBe(1);
    expect(jsonlExactMatch('the answer.', ['the answer'])).toBe(0);
    expect(jsonlExactMatch('b', ['a', 'B'])).toBe(1);
  });
});

describe('substring_contains', () => {
  it('finds any normalised reference inside the normalised prediction', () => {
    expect(substringContains('I think the capital is\nPARIS, France', ['paris'])).toBe(1);
    expect(substringContains('new  york', ['New York'])).toBe(1);
    expect(substringContains('London', ['paris', 'rome'])).toBe(0);
  });

  it('does not let an empty reference match everything', () => {
    expect(substringContains('anything', [''])).toBe(0);
    expect(substringContains('  ', [''])).toBe(1);
  });
});

describe('multiple_choice (JSONL)', () => {
  it('compares the first letter of the answer with the target letter', () => {
    expect(multipleChoiceLetter('b) because', ['B'])).toBe(1);
    expect(multipleChoiceLetter('(C)', ['c'])).toBe(1);
    expect(multipleChoiceLetter('123', ['A'])).toBe(0);
    expect(() => multipleChoiceLetter('A', ['AB'])).toThrow(/target letter/);
  });
});

describe('rouge_l (JSONL)', () => {
  it('is LCS F1 on the lowercased words, as the lesson defines it', () => {
    // tokens: gold [the, cat, sat, down] / pred [the, cat, down] → LCS 3, P = 1, R = 3/4, F1 = 2·(3/4)/(7/4) = 6/7
    expect(rougeLF1('The cat down', 'the cat sat down')).toBeCloseTo(6 / 7, 15);
    // Words are runs of letters and digits: punctuation and "_" only separate them.
    expect(rougeLTokens('The cat is a mammal. snake_case, 3.5!')).toEqual([
      'the',
      'cat',
      'is',
      'a',
      'mammal',
      'snake',
      'case',
      '3',
      '5',
    ]);
    // The lesson's first-sentence summary with its full stop is the reference exactly.
    expect(rougeLF1('The cat is a mammal.', 'The cat is a mammal')).toBe(1);
    // Any script: Python's \w is Unicode; "東へ" is one word, "川" another.
    expect(rougeLTokens('川 は 東へ、流れる')).toEqual(['川', 'は', '東へ', '流れる']);
    // LCS [川, は] of 4 and 4 tokens: P = R = 1/2 → F1 1/2.
    expect(rougeLF1('川 は 東へ 流れる', '川 は ゆっくり 曲がる')).toBe(0.5);
    // No words on either side: nothing to match.
    expect(rougeLF1('', '')).toBe(0);
    expect(rougeLF1('...', 'cat')).toBe(0);
    expect(rougeLF1('cat', '')).toBe(0);
  });
});

describe('extractChoice', () => {
  const choices = ['dog', 'cat', 'black cat', 'bird'];

  it('reads a leading letter', () => {
    expect(extractChoice('B', choices)).toBe(1);
    expect(extractChoice('(C) black cat', choices)).toBe(2);
    expect(extractChoice('D. bird', choices)).toBe(3);
    expect(extractChoice('A) dog', choices)).toBe(0);
  });

  it('does not read the article "a" or letters past the choices', () => {
    expect(extractChoice('a cat', choices)).toBe(1);
    expect(extractChoice('E.', choices)).toBeUndefined();
  });

  it('falls back to the longest choice text found in the answer', () => {
    expect(extractChoice('I would say the Black  Cat', choices)).toBe(2);
    expect(extractChoice('none of them', choices)).toBeUndefined();
    expect(extractChoice('dog or cat', ['dog', 'cat'])).toBeUndefined(); // same length: undecided
  });
});
