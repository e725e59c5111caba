import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bleuAggregation } from './bleu.js';
import { chrfAggregation } from './chrf.js';
import { terAggregation } from './ter.js';

// See the fixture's `_how`: values from lm-eval's bleu/chrf/ter aggregations over sacreBLEU (f615c72).
// Random edits with moved blocks exercise TER's shift search and beam far more than hand-written cases.
const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/metrics/sacrebleu-random.json', import.meta.url), 'utf8'),
) as {
  cases: Array<[string, string]>;
  ter: number[];
  bleu: number;
  chrf: number;
  ter_corpus: number;
};

describe('sacreBLEU metrics on a random corpus', () => {
  it('TER matches per segment', () => {
    expect(fixture.cases.map((pair) => terAggregation([pair]))).toEqual(fixture.ter);
  });

  it('corpus BLEU, chrF and TER match', () => {
    expect(bleuAggregation(fixture.cases)).toBeCloseTo(fixture.bleu, 11);
    expect(chrfAggregation(fixture.cases)).toBe(fixture.chrf);
    expect(terAggregation(fixture.cases)).toBe(fixture.ter_corpus);
  });
});
