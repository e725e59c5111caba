import { describe, expect, it } from 'vitest';
import { normalizeGenerationKwargs } from './generation-kwargs.js';
import { parseLimit, sampleSize } from './limit.js';
import { parseSeeds } from './seeds.js';

describe('--limit (lm-eval get_sample_size)', () => {
  it('treats values below 1 as fractions and the rest as counts', () => {
    expect(sampleSize(40, parseLimit('0.1'))).toBe(4);
    expect(sampleSize(41, parseLimit('0.1'))).toBe(5);
    expect(sampleSize(40, parseLimit('1.0'))).toBe(1);
    expect(sampleSize(40, parseLimit('100'))).toBe(40);
    expect(sampleSize(40, parseLimit(undefined))).toBe(40);
  });
  it('rejects nonsense', () => {
    for (const bad of ['lots', '-1', '0', '2.5', 'NaN'])
      expect(() => parseLimit(bad)).toThrow('--limit must be');
  });
});

describe('--seed', () => {
  it('follows lm-eval: default, one value, three values, None', () => {
    expect(parseSeeds(undefined)).toEqual({ random: 0, numpy: 1234, torch: 1234, fewshot: 1234 });
    expect(parseSeeds('42')).toEqual({ random: 42, numpy: 42, torch: 42, fewshot: 42 });
    expect(parseSeeds('1,2,3')).toEqual({ random: 1, numpy: 2, torch: 3, fewshot: 1234 });
    expect(parseSeeds('None,2,3,4')).toEqual({ random: null, numpy: 2, torch: 3, fewshot: 4 });
    expect(() => parseSeeds('1,2')).toThrow('--seed takes 1, 3 or 4');
  });
});

describe('generation kwargs normalisation', () => {
  it('defaults until to the few-shot delimiter and infers do_sample', () => {
    expect(normalizeGenerationKwargs(undefined, {}, '\n\n')).toEqual({
      until: ['\n\n'],
      maxGenToks: 256,
      temperature: 0,
      doSample: false,
      extra: {},
    });
    expect(
      normalizeGenerationKwargs({ until: 'Q:', max_new_tokens: 5, temperature: 0.7, top_p: 0.9 }, {}, '\n\n'),
    ).toEqual({
      until: ['Q:'],
      maxGenToks: 5,
      temperature: 0.7,
      doSample: true,
      extra: { top_p: 0.9 },
    });
  });
  it('lets --gen_kwargs update the task values and forces temperature 0 without sampling', () => {
    expect(
      normalizeGenerationKwargs(
        { temperature: 0.5, max_gen_toks: 10 },
        { do_sample: false, max_gen_toks: 3 },
        '\n',
      ),
    ).toMatchObject({
      temperature: 0,
      doSample: false,
      maxGenToks: 3,
    });
  });
});
