import { describe, expect, it } from 'vitest';
import { normalizeGenerationKwargs } from './generation-kwargs.js';
import { limitValue, sampleSize } from './limit.js';
import { settleSeeds } from './seeds.js';

describe('limit (lm-eval get_sample_size)', () => {
  it('takes a count or { fraction }, the number lm-eval uses being the count or the fraction', () => {
    expect(sampleSize(40, limitValue({ fraction: 0.1 }))).toBe(4);
    expect(sampleSize(41, limitValue({ fraction: 0.1 }))).toBe(5);
    expect(sampleSize(40, limitValue(1))).toBe(1);
    expect(sampleSize(40, limitValue(100))).toBe(40);
    expect(sampleSize(40, limitValue(undefined))).toBe(40);
  });
  it('names the field for a value that is neither', () => {
    for (const bad of [0, -1, 2.5, 0.5, Number.NaN])
      expect(() => limitValue(bad)).toThrow('`limit` must be a whole number of docs, at least 1');
    for (const bad of [{ fraction: 0 }, { fraction: 1 }, { fraction: 1.5 }])
      expect(() => limitValue(bad)).toThrow(
        '`limit` must be a count or { fraction } with a fraction between 0 and 1',
      );
  });
});

describe('seeds', () => {
  it("fill lm-eval's defaults around the given ones; null leaves a generator unseeded", () => {
    expect(settleSeeds(undefined)).toEqual({ random: 0, numpy: 1234, torch: 1234, fewshot: 1234 });
    expect(settleSeeds({ random: 42, fewshot: null })).toEqual({
      random: 42,
      numpy: 1234,
      torch: 1234,
      fewshot: null,
    });
    expect(() => settleSeeds({ random: 1.5 })).toThrow('`seeds.random` must be an integer or null, got 1.5');
    expect(() => settleSeeds({ python: 1 } as never)).toThrow('`seeds` has no generator "python"');
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
