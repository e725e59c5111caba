/**
 * FewshotSampler against lm-eval's own samplers: the draws below are what lm_eval/api/samplers.py
 * (ContextSampler with set_rnd(seed), FirstNSampler; commit 4e7e0d47) returned on CPython 3.11 for a pool of
 * `{id, text}` docs, sampling for the eval docs in order with one generator.
 */
import { describe, expect, test } from 'vitest';
import { AssayError } from '../errors.js';
import { FewshotSampler, isSameSplit } from './fewshot.js';

interface SamplerCase {
  poolSize: number;
  n: number;
  evalIds: number[];
  sameSplit: boolean;
  seed: number;
  draws: number[][];
}

const LM_EVAL_DRAWS: Record<string, SamplerCase> = {
  'default, other split, small pool': {
    poolSize: 10,
    n: 3,
    evalIds: [0, 1, 2, 3, 4],
    sameSplit: false,
    seed: 1234,
    draws: [
      [7, 1, 0],
      [1, 0, 9],
      [1, 5, 3],
      [0, 9, 8],
      [5, 7, 8],
    ],
  },
  'default, same split, eval doc in pool': {
    poolSize: 8,
    n: 3,
    evalIds: [0, 1, 2, 3, 4, 5, 6, 7],
    sameSplit: true,
    seed: 1234,
    draws: [
      [7, 6, 5],
      [0, 5, 6],
      [1, 6, 7],
      [0, 7, 6],
      [7, 3, 1],
      [1, 7, 0],
      [0, 4, 3],
      [1, 5, 4],
    ],
  },
  'default, same split, eval doc not in pool': {
    poolSize: 8,
    n: 2,
    evalIds: [100, 101, 102],
    sameSplit: true,
    seed: 1234,
    draws: [
      [7, 0],
      [1, 6],
      [0, 5],
    ],
  },
  'default, large pool (set-based sample)': {
    poolSize: 5000,
    n: 5,
    evalIds: [0, 1, 2],
    sameSplit: false,
    seed: 1234,
    draws: [
      [3610, 957, 61, 742, 4769],
      [286, 687, 806, 2905, 1939],
      [142, 252, 129, 2835, 3966],
    ],
  },
  'default, large pool, k > 5': {
    poolSize: 300,
    n: 25,
    evalIds: [0, 1],
    sameSplit: true,
    seed: 1234,
    draws: [
      [
        225, 59, 3, 46, 298, 17, 42, 50, 181, 121, 8, 15, 177, 247, 237, 76, 93, 58, 7, 257, 249, 127, 33,
        277, 238,
      ],
      [
        45, 263, 296, 23, 138, 284, 32, 154, 246, 181, 136, 127, 102, 232, 271, 9, 260, 36, 2, 170, 73, 242,
        193, 85, 27,
      ],
    ],
  },
  'default, seed 0': {
    poolSize: 12,
    n: 4,
    evalIds: [0, 1, 2],
    sameSplit: false,
    seed: 0,
    draws: [
      [6, 11, 0, 4],
      [8, 7, 6, 4],
      [7, 5, 9, 3],
    ],
  },
  'first_n, same split': {
    poolSize: 6,
    n: 3,
    evalIds: [0, 1, 2, 5],
    sameSplit: true,
    seed: 1234,
    draws: [
      [1, 2, 3],
      [0, 2, 3],
      [0, 1, 3],
      [0, 1, 2],
    ],
  },
  'first_n, other split': {
    poolSize: 6,
    n: 3,
    evalIds: [0, 1],
    sameSplit: false,
    seed: 1234,
    draws: [
      [0, 1, 2],
      [0, 1, 2],
    ],
  },
};

const doc = (id: number) => ({ id, text: `doc ${id}` });

describe('draws match lm-eval', () => {
  for (const [name, spec] of Object.entries(LM_EVAL_DRAWS)) {
    test(name, () => {
      const pool = Array.from({ length: spec.poolSize }, (_, i) => doc(i));
      const sampler = new FewshotSampler({
        pool,
        sampler: name.startsWith('first_n') ? 'first_n' : 'default',
        seed: spec.seed,
        sameSplit: spec.sameSplit,
      });
      const draws = spec.evalIds.map((id) => sampler.sample(doc(id), spec.n));
      expect(draws.map((draw) => draw.indices)).toEqual(spec.draws);
      for (const draw of draws) expect(draw.docs).toEqual(draw.indices.map((index) => pool[index]));
    });
  }
});

describe('FewshotSampler', () => {
  test('zero shots draw nothing and leave the generator untouched', () => {
    const pool = Array.from({ length: 10 }, (_, i) => doc(i));
    const a = new FewshotSampler({ pool, seed: 1234, sameSplit: false });
    const b = new FewshotSampler({ pool, seed: 1234, sameSplit: false });
    expect(a.sample(doc(0), 0)).toEqual({ docs: [], indices: [] });
    expect(a.sample(doc(1), 3)).toEqual(b.sample(doc(1), 3));
  });

  test('fewshotIndices restricts the default pool and reports positions in the full pool', () => {
    const pool = Array.from({ length: 10 }, (_, i) => doc(i));
    const sampler = new FewshotSampler({ pool, seed: 1234, sameSplit: false, fewshotIndices: [2, 4, 6, 8] });
    const draw = sampler.sample(doc(0), 4);
    expect([...draw.indices].sort()).toEqual([2, 4, 6, 8]);
  });

  test('asking for more shots than the pool holds is an AssayError naming the task', () => {
    const pool = [doc(0), doc(1)];
    const sampler = new FewshotSampler({ pool, seed: 1, sameSplit: true, task: 'tiny' });
    expect(() => sampler.sample(doc(0), 2)).toThrow(AssayError);
    expect(() => sampler.sample(doc(0), 2)).toThrow(
      /task tiny: cannot draw 3 few-shot docs from a pool of 2/,
    );
    const firstN = new FewshotSampler({ pool, sampler: 'first_n', seed: 1, sameSplit: true, task: 'tiny' });
    expect(() => firstN.sample(doc(0), 2)).toThrow(/2 few-shot samples requested, but only 1 are available/);
  });

  test('isSameSplit compares the few-shot split with test_split, None == None included', () => {
    expect(isSameSplit({})).toBe(true);
    expect(isSameSplit({ test_split: 'test' })).toBe(false);
    expect(isSameSplit({ test_split: 'test', fewshot_split: 'test' })).toBe(true);
    expect(isSameSplit({ test_split: 'test', fewshot_split: 'dev', fewshot_config: { split: 'test' } })).toBe(
      true,
    );
    expect(isSameSplit({ fewshot_split: 'validation' })).toBe(false);
  });
});

describe('first_n from another split', () => {
  test('draws once per n: every eval doc reads the same frozen shots', () => {
    const pool = Array.from({ length: 6 }, (_, i) => doc(i));
    const sampler = new FewshotSampler({ pool, sampler: 'first_n', seed: 1234, sameSplit: false });
    const first = sampler.sample(doc(10), 3);
    expect(first.indices).toEqual([0, 1, 2]);
    expect(first.docs).toEqual([pool[0], pool[1], pool[2]]);
    expect(sampler.sample(doc(11), 3)).toBe(first);
    expect(Object.isFrozen(first.indices) && Object.isFrozen(first.docs)).toBe(true);
    const two = sampler.sample(doc(12), 2);
    expect(two.indices).toEqual([0, 1]);
    // Same split: each eval doc is left out of its own shots, so each draw is its own.
    const same = new FewshotSampler({ pool, sampler: 'first_n', seed: 1234, sameSplit: true });
    expect(same.sample(pool[0], 3).indices).toEqual([1, 2, 3]);
    expect(same.sample(pool[4], 3).indices).toEqual([0, 1, 2]);
  });
});
