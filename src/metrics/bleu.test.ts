import { describe, expect, it } from 'vitest';
import { CORPUS, EXPECTED, MULTI_REFERENCE, SEGMENTS } from '../../test/fixtures/metrics/sacrebleu.js';
import { bleuAggregation, bleuMetric, corpusBleu } from './bleu.js';
import { tokenize13a } from './tokenizer-13a.js';

// Values agree with sacreBLEU to ~1e-15 relative: JS Math.log/Math.exp may differ from libm in the last bit.
describe('bleu', () => {
  it('matches lm-eval/sacreBLEU on a corpus', () => {
    expect(bleuAggregation(CORPUS)).toBeCloseTo(EXPECTED.bleu, 11);
  });

  it.each(SEGMENTS)('matches on the single segment %j / %j', (reference, prediction, bleu) => {
    expect(bleuAggregation([[reference, prediction]])).toBeCloseTo(bleu, 11);
  });

  it('uses every reference of an item (multi-reference streams)', () => {
    expect(bleuAggregation(MULTI_REFERENCE)).toBeCloseTo(EXPECTED.bleuMulti, 11);
  });

  it('is 0 when higher orders have no n-grams at all', () => {
    expect(bleuAggregation([['hello there general kenobi', 'hello']])).toBe(EXPECTED.bleuShort);
  });

  it('is 100 for identical texts, and 0 for nothing in common', () => {
    expect(corpusBleu(['The cat sat on the mat.'], [['The cat sat on the mat.']])).toBeCloseTo(100, 12);
    expect(corpusBleu(['x y z w'], [['a b c d']])).toBe(0);
  });

  it('tokenizes with 13a', () => {
    // Outputs of sacreBLEU's Tokenizer13a()(line) (source at f615c72) under CPython 3.11 on this machine.
    expect(tokenize13a("It's 3.5 km, isn't it? &amp; 5-6")).toBe("It's 3.5 km , isn't it ? & 5 - 6");
    expect(tokenize13a('a<skipped>b-\nc "q" [x]{y} 1,000.5')).toBe('abc " q " [ x ] { y } 1,000.5');
  });

  it('items are (reference, prediction) and malformed items are refused', () => {
    expect(bleuMetric.compute?.({ references: ['r'], prediction: 'p', kwargs: {} })).toEqual(['r', 'p']);
    expect(() => bleuAggregation([])).toThrow(/at least one item/);
    expect(() => bleuAggregation([['r', 3]])).toThrow(/prediction must be a string/);
  });
});
