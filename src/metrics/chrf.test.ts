import { describe, expect, it } from 'vitest';
import { CORPUS, EXPECTED, MULTI_REFERENCE, SEGMENTS } from '../../test/fixtures/metrics/sacrebleu.js';
import { chrfAggregation, corpusChrf } from './chrf.js';

describe('chrf', () => {
  it('matches lm-eval/sacreBLEU on a corpus', () => {
    expect(chrfAggregation(CORPUS)).toBe(EXPECTED.chrf);
  });

  it.each(SEGMENTS)('matches on the single segment %j / %j', (reference, prediction, _bleu, chrf) => {
    expect(chrfAggregation([[reference, prediction]])).toBe(chrf);
  });

  it('keeps the best reference per segment', () => {
    expect(chrfAggregation(MULTI_REFERENCE)).toBe(EXPECTED.chrfMulti);
  });

  it('is 100 for identical texts, ignores whitespace, and is 0 with nothing in common', () => {
    expect(corpusChrf(['a b c'], [['a b c']])).toBe(100);
    expect(corpusChrf(['abc'], [['a b  c']])).toBe(100);
    expect(corpusChrf(['xyz'], [['abc']])).toBe(0);
  });
});
