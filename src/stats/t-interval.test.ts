import { describe, expect, it } from 'vitest';
import { tInterval } from './t-interval.js';

describe('tInterval', () => {
  it('matches scipy.stats.ttest_1samp(x, 0).confidence_interval(0.95)', () => {
    const values = [0.5, 1.25, 3.0, 0.0, 2.5, 4.75, 1.0, 0.25, 3.5, 2.0, 1.5];
    expect(tInterval(values)).toEqual({
      method: 't',
      confidence: 0.95,
      estimate: expect.closeTo(20.25 / 11, 14),
      standardError: expect.closeTo(0.4462886439503118, 14),
      degreesOfFreedom: 10,
      low: expect.closeTo(0.8465160241231319, 12),
      high: expect.closeTo(2.83530215769505, 12),
    });
  });

  it('needs two values', () => {
    expect(() => tInterval([1])).toThrow(/at least 2 values/);
  });
});
