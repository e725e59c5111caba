import { describe, expect, it } from 'vitest';
import { exactMatch, exactMatchMetric } from './exact-match.js';

// Expected values: lm-eval's own `exact_match_hf_evaluate(references=[gold], predictions=[pred], **kwargs)`
// (lm_eval/api/metrics.py at 4e7e0d47) run under CPython 3.11 + numpy 2.4 on this machine.
const CASES: Array<[gold: string, prediction: string, kwargs: Record<string, unknown>, expected: number]> = [
  ['The Answer.', 'the answer', {}, 0],
  ['The Answer.', 'the answer', { ignore_case: true }, 0],
  ['The Answer.', 'the answer', { ignore_case: true, ignore_punctuation: true }, 1],
  ['Paris 2024!', 'paris', { ignore_case: true, ignore_punctuation: true, ignore_numbers: true }, 0],
  ['Answer: 42', '42', { regexes_to_ignore: ['^\\s*answer:\\s*', '(?i)ANSWER: '] }, 1],
  ['$1,000', '1000', { regexes_to_ignore: [',', '\\$'] }, 1],
  ['\u00c9T\u00c9', '\u00e9t\u00e9', { ignore_case: true }, 1],
];

describe('exact_match', () => {
  it.each(CASES)('gold %j vs %j with %j', (gold, prediction, kwargs, expected) => {
    expect(exactMatchMetric.compute?.({ references: [gold], prediction, kwargs })).toBe(expected);
  });

  it('scores 1 when any of several references matches (lm-eval multiple_target)', () => {
    expect(exactMatch('B', ['A', 'B'])).toBe(1);
    expect(exactMatch('C', ['A', 'B'])).toBe(0);
  });

  it('rejects kwargs lm-eval would reject, and needs a reference', () => {
    expect(() =>
      exactMatchMetric.compute?.({ references: ['a'], prediction: 'a', kwargs: { ignorecase: true } }),
    ).toThrow(/no argument "ignorecase"/);
    expect(() =>
      exactMatchMetric.compute?.({ references: ['a'], prediction: 'a', kwargs: { ignore_case: 'yes' } }),
    ).toThrow(/ignore_case must be true or false/);
    expect(() => exactMatchMetric.compute?.({ references: [], prediction: 'a', kwargs: {} })).toThrow(
      /at least one reference/,
    );
  });
});
