import { describe, expect, it } from 'vitest';
import { adjustPValues } from './p-value-adjustment.js';

describe('adjustPValues', () => {
  it('defaults to Holm and keeps the input order', () => {
    // Holm by hand: sorted 0.01, 0.03, 0.04 → 3·0.01, 2·0.03, max(0.06, 1·0.04) → [0.06, 0.03, 0.06]
    expect(adjustPValues([0.04, 0.01, 0.03])).toEqual([
      expect.closeTo(0.06, 15),
      expect.closeTo(0.03, 15),
      expect.closeTo(0.06, 15),
    ]);
  });

  it('handles an empty family and rejects non-probabilities', () => {
    expect(adjustPValues([], 'bh')).toEqual([]);
    expect(() => adjustPValues([0.1, Number.NaN])).toThrow(/p\[1\]/);
    expect(() => adjustPValues([1.2])).toThrow(/\[0, 1\]/);
  });
});
