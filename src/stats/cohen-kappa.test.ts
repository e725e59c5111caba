import { describe, expect, it } from 'vitest';
import { cohenKappa } from './cohen-kappa.js';

const repeat = <T>(value: T, times: number): T[] => Array.from({ length: times }, () => value);

/**
 * Reference values: scikit-learn's `cohen_kappa_score` tests (sklearn/metrics/tests/test_classification.py,
 * `test_cohen_kappa`), whose tables come from Artstein & Poesio (2008), "Inter-coder agreement for
 * computational linguistics", Tables 1 and 4.
 */
describe('cohenKappa', () => {
  it("matches Artstein & Poesio's Table 1 (2×2 table [[20, 20], [10, 50]]): κ = 0.348, symmetric", () => {
    const a = [...repeat(0, 40), ...repeat(1, 60)];
    const b = [...repeat(0, 20), ...repeat(1, 20), ...repeat(0, 10), ...repeat(1, 50)];
    // By hand: p_o = 0.7, p_e = 0.4·0.3 + 0.6·0.7 = 0.54, κ = 0.16 / 0.46.
    expect(cohenKappa(a, b)).toBeCloseTo(0.16 / 0.46, 12);
    expect(cohenKappa(a, b)).toBeCloseTo(0.348, 3);
    expect(cohenKappa(b, a)).toBe(cohenKappa(a, b));
  });

  it('leaves out items whose value is not a listed label, as sklearn `labels` does', () => {
    const a = [...repeat(0, 40), ...repeat(1, 60), ...repeat(2, 4)];
    const b = [...repeat(0, 20), ...repeat(1, 20), ...repeat(0, 10), ...repeat(1, 50), ...repeat(2, 4)];
    expect(cohenKappa(a, b, { labels: [0, 1] })).toBeCloseTo(0.16 / 0.46, 12);
    expect(cohenKappa(a, a)).toBe(1);
  });

  it("matches Artstein & Poesio's Table 4 (three categories): κ = 0.8013", () => {
    const a = [...repeat(0, 46), ...repeat(1, 44), ...repeat(2, 10)];
    const b = [...repeat(0, 52), ...repeat(1, 32), ...repeat(2, 16)];
    expect(cohenKappa(a, b)).toBeCloseTo(0.8013, 4);
  });

  it("matches sklearn's weighting example: none 0.9315, linear 0.9412, quadratic 0.9541", () => {
    const a = [...repeat(0, 46), ...repeat(1, 44), ...repeat(2, 10)];
    const b = [...repeat(0, 50), ...repeat(1, 40), ...repeat(2, 10)];
    expect(cohenKappa(a, b)).toBeCloseTo(0.9315, 4);
    expect(cohenKappa(a, b, { weights: 'linear' })).toBeCloseTo(0.9412, 4);
    expect(cohenKappa(a, b, { weights: 'quadratic' })).toBeCloseTo(0.9541, 4);
  });

  it('reads weights off the label order given, not the sorted one', () => {
    // Scores 1 and 3 one step apart on the scale [1, 3, 2]: linear weights see |0 − 1| = 1 instead of 2.
    const a = [1, 3, 2, 1];
    const b = [3, 3, 2, 1];
    const sorted = cohenKappa(a, b, { weights: 'linear' });
    const reordered = cohenKappa(a, b, { weights: 'linear', labels: [1, 3, 2] });
    expect(reordered).toBeGreaterThan(sorted);
    // By hand (sorted 1 < 2 < 3): O has one (1,3) disagreement of weight 2; rows (2,1,1) columns (1,1,2),
    // E·W = Σ r_a c_b |a − b| / 4 = (2·1·1 + 2·2·2 + 1·1·1 + 1·2·1 + 1·1·2 + 1·1·1) / 4 = 16 / 4.
    expect(sorted).toBeCloseTo(1 - 2 / 4, 12);
  });

  it('is −1 for two raters in complete disagreement on balanced labels, NaN when both use one category', () => {
    expect(cohenKappa(['pass', 'fail'], ['fail', 'pass'])).toBe(-1);
    expect(cohenKappa(['pass', 'pass'], ['pass', 'pass'])).toBeNaN();
  });

  it('refuses raters of different lengths', () => {
    expect(() => cohenKappa([1, 2], [1])).toThrow(/same length/);
  });
});
