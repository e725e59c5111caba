import { describe, expect, it } from 'vitest';
import {
  bcaAcceleration,
  bcaBiasCorrection,
  bootstrapInterval,
  percentileOfSorted,
} from './bootstrap-interval.js';

// Treats these 12 values as if they were bootstrap replicates, so every step can be checked against
// NumPy: numpy.percentile(x, q) (linear), and SciPy's BCa formulas from scipy.stats._resampling._bca_interval.
const x = [2.1, 3.4, 1.9, 5.6, 4.4, 3.3, 2.8, 7.9, 3.0, 4.1, 2.2, 6.5];

describe('bootstrap intervals', () => {
  it('percentile interval = numpy.percentile at 2.5 and 97.5', () => {
    expect(bootstrapInterval(x)).toEqual({
      method: 'percentile',
      confidence: 0.95,
      levels: [expect.closeTo(0.025, 15), expect.closeTo(0.975, 15)],
      low: expect.closeTo(1.955, 12),
      high: expect.closeTo(7.515, 12),
    });
  });

  it('BCa interval: z0 from the mid-rank share, adjusted levels, then numpy.percentile', () => {
    // observed 3.5, a = 0.04267131828062072 → z0 = 0.21042839424792484, levels 0.07815830897411057 and
    // 0.9953705604278884, interval [2.0719482797430433, 7.82870663058948].
    expect(bcaBiasCorrection(x, 3.5)).toBeCloseTo(0.21042839424792484, 14);
    const interval = bootstrapInterval(x, {
      method: 'bca',
      observed: 3.5,
      acceleration: 0.04267131828062072,
    });
    expect(interval.levels[0]).toBeCloseTo(0.07815830897411057, 13);
    expect(interval.levels[1]).toBeCloseTo(0.9953705604278884, 13);
    expect(interval.low).toBeCloseTo(2.0719482797430433, 12);
    expect(interval.high).toBeCloseTo(7.82870663058948, 12);
  });

  it('BCa needs the observed statistic and the acceleration', () => {
    expect(() => bootstrapInterval(x, { method: 'bca' })).toThrow(/observed/);
  });

  it('computes the acceleration of a general statistic by the jackknife', () => {
    const mean = (items: readonly number[]) => items.reduce((sum, value) => sum + value, 0) / items.length;
    const general = bcaAcceleration(x, mean);
    expect(general.acceleration).toBeCloseTo(bcaAcceleration(x).acceleration, 14);
    expect(bcaAcceleration([1, 1, 1]).acceleration).toBe(0);
  });

  it('interpolates percentiles as NumPy does', () => {
    const sorted = [...x].sort((a, b) => a - b);
    // numpy.percentile(x, 1.292298962475423) and numpy.percentile(x, 95.13481255560884)
    expect(percentileOfSorted(sorted, 0.01292298962475423)).toBeCloseTo(1.9284305771744592, 12);
    expect(percentileOfSorted(sorted, 0.9513481255560884)).toBeCloseTo(7.150761133563765, 12);
    expect(percentileOfSorted(sorted, 0)).toBe(1.9);
    expect(percentileOfSorted(sorted, 1)).toBe(7.9);
  });
});
