import { describe, expect, it } from 'vitest';
import { PythonRandom } from './random.js';

// Expected values printed by CPython 3.11's `random` module (the reference implementation).
describe('PythonRandom', () => {
  it('matches random.Random(1234).sample / random / getrandbits', () => {
    const rng = new PythonRandom(1234);
    const range = Array.from({ length: 100 }, (_, i) => i);
    expect(rng.sample(range, 5)).toEqual([99, 56, 14, 0, 11]);
    expect(rng.random()).toBe(0.9109759624491242);
  });

  it('matches random.Random(0).choices', () => {
    const rng = new PythonRandom(0);
    expect(rng.choices([1, 2, 3, 4, 5], 5)).toEqual([5, 4, 3, 2, 3]);
  });
});
