import { describe, expect, it } from 'vitest';
import { verdict } from './verdict.js';

const base = { alpha: 0.05, power: 0.8, n: 1000, minimumDetectableEffect: 0.0312, adjustment: 'Holm' };

describe('verdict', () => {
  it('claims a direction only when the adjusted p clears alpha, oriented by higher_is_better', () => {
    expect(verdict({ ...base, difference: 0.02, higherIsBetter: true, pValueAdjusted: 0.0031 })).toEqual({
      outcome: 'B better',
      text: 'B better (p_adj = 0.0031, Holm)',
    });
    expect(
      verdict({ ...base, difference: 0.02, higherIsBetter: false, pValueAdjusted: 0.0031 }).outcome,
    ).toBe('B worse');
  });

  it('states the MDE instead of "no difference"', () => {
    expect(verdict({ ...base, difference: 0.02, higherIsBetter: true, pValueAdjusted: 0.08 }).text).toBe(
      'no detectable difference (p_adj = 0.080, Holm); at n = 1000, the MDE at 80% power is 0.0312',
    );
  });

  it('says when no effect is detectable at this n instead of printing an MDE', () => {
    expect(
      verdict({
        ...base,
        difference: 0,
        higherIsBetter: true,
        pValueAdjusted: 1,
        minimumDetectableEffect: null,
      }).text,
    ).toBe(
      'no detectable difference (p_adj = 1.000, Holm); at n = 1000, no effect is detectable at 80% power (MDE not reachable at this n)',
    );
  });
});
