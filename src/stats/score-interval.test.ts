import { describe, expect, it } from 'vitest';
import { meanScoreInterval } from './score-interval.js';

describe('meanScoreInterval', () => {
  it('uses Wilson for 0/1 scores and the t-interval otherwise', () => {
    // 5 of 10 correct: scipy.stats.binomtest(5, 10).proportion_ci(method='wilson')
    const wilson = meanScoreInterval([1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
    expect(wilson).toEqual({
      low: expect.closeTo(0.236593090512564, 12),
      high: expect.closeTo(0.7634069094874361, 12),
      method: 'wilson',
      confidence: 0.95,
    });
    // scipy.stats.ttest_1samp(x, 0).confidence_interval(0.95)
    const t = meanScoreInterval([0.5, 1.25, 3.0, 0.0, 2.5, 4.75, 1.0, 0.25, 3.5, 2.0, 1.5]);
    expect(t).toEqual({
      low: expect.closeTo(0.8465160241231319, 12),
      high: expect.closeTo(2.83530215769505, 12),
      method: 't',
      confidence: 0.95,
    });
  });

  it('needs scores', () => {
    expect(() => meanScoreInterval([])).toThrow(/at least one score/);
  });
});
