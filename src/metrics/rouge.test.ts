import { describe, expect, it } from 'vitest';
import { rouge1Metric, rouge2Metric, rougeL, rougeLMetric, rougeN, rougeTokenize } from './rouge.js';

// Expected F-measures: rouge_score 0.1.2's algorithm (tokenize.tokenize without stemmer, _score_ngrams,
// _score_lcs, scoring.fmeasure), transcribed into /tmp from the package source and run under CPython 3.11.
const CASES: Array<[target: string, prediction: string, rouge1: number, rouge2: number, rougeL: number]> = [
  [
    'The quick brown fox jumps over the lazy dog',
    'The quick brown dog jumps on the log.',
    0.7058823529411765,
    0.26666666666666666,
    0.5882352941176471,
  ],
  [
    "Caf\u00e9 au lait, s'il vous pla\u00eet!",
    'cafe au lait',
    0.36363636363636365,
    0.22222222222222224,
    0.36363636363636365,
  ],
  ['police killed the gunman', 'the gunman police killed', 1.0, 0.6666666666666666, 0.5],
  ['', 'anything', 0.0, 0.0, 0.0],
  ['A B C D', 'a b c d', 1.0, 1.0, 1.0],
];

describe('rouge', () => {
  it.each(CASES)('target %j vs %j', (target, prediction, one, two, lcs) => {
    expect(rougeN(target, prediction, 1).fmeasure).toBe(one);
    expect(rougeN(target, prediction, 2).fmeasure).toBe(two);
    expect(rougeL(target, prediction).fmeasure).toBe(lcs);
  });

  it('tokenizes like rouge_score: lowercase ASCII alphanumeric runs', () => {
    expect(rougeTokenize("Café au lait, s'il vous plaît!")).toEqual([
      'caf',
      'au',
      'lait',
      's',
      'il',
      'vous',
      'pla',
      't',
    ]);
  });

  it('keeps the best reference and refuses the stemmer', () => {
    const input = {
      references: ['nothing alike', 'the gunman police killed'],
      prediction: 'police killed the gunman',
      kwargs: {},
    };
    expect(rouge1Metric.compute?.(input)).toBe(1);
    expect(rouge2Metric.compute?.(input)).toBeCloseTo(2 / 3, 15);
    expect(rougeLMetric.compute?.(input)).toBe(0.5);
    expect(() => rouge1Metric.compute?.({ ...input, kwargs: { use_stemmer: true } })).toThrow(/use_stemmer/);
  });
});
