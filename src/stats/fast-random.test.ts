import { describe, expect, it } from 'vitest';
import { FastRandom } from './fast-random.js';

describe('FastRandom (xoshiro128** seeded by SplitMix32)', () => {
  it('produces the reference stream', () => {
    // Computed with a direct Python transcription of SplitMix32 → xoshiro128** (Vigna's C reference).
    const random = new FastRandom(42);
    expect([1, 2, 3, 4, 5].map(() => random.nextUint32())).toEqual([
      2837322924, 544945897, 479756282, 3500138142, 339756180,
    ]);
  });

  it('draws unbiased integers below n', () => {
    const random = new FastRandom(7);
    const counts = new Array(6).fill(0);
    for (let i = 0; i < 60_000; i++) counts[random.nextBelow(6)]++;
    // Each count is Binomial(60000, 1/6): sd ≈ 91, so ±500 is more than 5 sd.
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
    expect(new FastRandom(1).nextDouble()).toBeLessThan(1);
  });
});
