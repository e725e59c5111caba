import { describe, expect, it } from 'vitest';
import { CORPUS, EXPECTED, MULTI_REFERENCE, TER_SHIFTS } from '../../test/fixtures/metrics/sacrebleu.js';
import { METRICS } from './registry.js';
import { corpusTer, terAggregation, translationEditRate } from './ter.js';

describe('ter', () => {
  it('matches lm-eval/sacreBLEU on a corpus', () => {
    expect(terAggregation(CORPUS)).toBe(EXPECTED.ter);
  });

  it('takes the fewest edits over the average reference length with several references', () => {
    expect(terAggregation(MULTI_REFERENCE)).toBe(EXPECTED.terMulti);
  });

  it.each(TER_SHIFTS)('counts block shifts as one edit: %j vs %j', (reference, prediction, ter) => {
    expect(terAggregation([[reference, prediction]])).toBe(ter);
  });

  it('one shift of a 4-word block costs 1 edit', () => {
    expect(translationEditRate('e f g h a b c d'.split(' '), 'a b c d e f g h'.split(' '))).toEqual([1, 8]);
  });

  it('is 0 for identical texts (case-insensitive by default), 100 against an empty reference', () => {
    expect(corpusTer(['The Cat'], [['the cat']])).toBe(0);
    expect(corpusTer(['a b'], [['']])).toBe(100);
    expect(corpusTer([''], [['']])).toBe(0);
  });

  it('is registered lower-is-better, unlike lm-eval', () => {
    expect(METRICS.ter.higherIsBetter).toBe(false);
  });
});
