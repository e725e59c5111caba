import { describe, expect, it } from 'vitest';
import { krippendorffAlpha } from './krippendorff-alpha.js';

/**
 * Reference values: Krippendorff, K. (2011). "Computing Krippendorff's Alpha-Reliability", Annenberg School
 * for Communication Departmental Papers 43, https://repository.upenn.edu/asc_papers/43, examples A, B and
 * C. Example C (four observers, missing values) is also the "C" data of R DescTools' `KrippAlpha` examples
 * (https://search.r-project.org/CRAN/refmans/DescTools/html/KrippAlpha.html); the Wikipedia "computational
 * example" (three coders, fifteen units) is checked against the values the `krippendorff` Python package's
 * tests assert for it (nominal 0.691358, interval 0.810845).
 */
const _ = null;

describe('krippendorffAlpha', () => {
  it('example A (binary, 2 observers, no missing data): α = 0.095', () => {
    const result = krippendorffAlpha([
      [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
      [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
    ]);
    // By hand: o_01 = 4, n_0 = 14, n_1 = 6, n = 20: α = 1 − 19·4 / (14·6).
    expect(result.alpha).toBeCloseTo(1 - (19 * 4) / (14 * 6), 12);
    expect(result.alpha).toBeCloseTo(0.095, 3);
    expect(result.pairableValues).toBe(20);
  });

  it('example B (nominal, 2 observers, no missing data): α = 0.692', () => {
    const result = krippendorffAlpha([
      ['a', 'a', 'b', 'b', 'd', 'c', 'c', 'c', 'e', 'd', 'd', 'a'],
      ['b', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'e', 'd', 'd', 'd'],
    ]);
    expect(result.alpha).toBeCloseTo(0.692, 3);
  });

  const exampleC = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
    [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
  ];

  it('example C (4 observers, missing values): nominal 0.743, ordinal 0.815, interval 0.849, ratio 0.797', () => {
    expect(krippendorffAlpha(exampleC, { level: 'nominal' }).alpha).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(exampleC, { level: 'ordinal' }).alpha).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(exampleC, { level: 'interval' }).alpha).toBeCloseTo(0.849, 3);
    expect(krippendorffAlpha(exampleC, { level: 'ratio' }).alpha).toBeCloseTo(0.797, 3);
    // Units 1–11 hold 3+4+4+4+4+4+4+4+4+3+2 = 40 values; unit 12's single value is not pairable.
    const nominal = krippendorffAlpha(exampleC);
    expect(nominal.pairableUnits).toBe(11);
    expect(nominal.pairableValues).toBe(40);
  });

  it('ordinal α over string values follows the order given in `values`', () => {
    const names = ['very low', 'low', 'mid', 'high', 'very high'];
    const asNames = exampleC.map((row) => row.map((value) => (value === null ? null : names[value - 1])));
    expect(krippendorffAlpha(asNames, { level: 'ordinal', values: names }).alpha).toBeCloseTo(0.815, 3);
  });

  const wikipedia = [
    [_, _, _, _, _, 3, 4, 1, 2, 1, 1, 3, 3, _, 3],
    [1, _, 2, 1, 3, 3, 4, 3, _, _, _, _, _, _, _],
    [_, _, 2, 1, 3, 4, 4, _, 2, 1, 1, 3, 3, _, 4],
  ];

  it('the Wikipedia computational example: nominal 0.691358, interval 0.810845', () => {
    expect(krippendorffAlpha(wikipedia).alpha).toBeCloseTo(0.691358, 6);
    expect(krippendorffAlpha(wikipedia, { level: 'interval' }).alpha).toBeCloseTo(0.810845, 6);
  });

  it('is 1 for perfect agreement and NaN when every pairable value is the same', () => {
    const perfect = [
      [1, 2, 3, 4],
      [1, 2, 3, 4],
      [1, 2, 3, 4],
    ];
    expect(krippendorffAlpha(perfect).alpha).toBe(1);
    expect(krippendorffAlpha(perfect, { level: 'interval' }).alpha).toBe(1);
    expect(
      krippendorffAlpha([
        [1, 1],
        [1, 1],
      ]).alpha,
    ).toBeNaN();
  });

  it("two raters, nominal, no missing data: α sits just above Scott's π, α = 1 − (1 − π)(2N − 1)/(2N)", () => {
    // A known identity (Krippendorff 2011, section on 2 observers): with N units, α corrects π for sample size.
    const a = ['x', 'y', 'y', 'x', 'z', 'z', 'x', 'y'];
    const b = ['x', 'y', 'x', 'x', 'z', 'y', 'x', 'y'];
    const n = a.length;
    const agreeing = a.filter((value, i) => value === b[i]).length / n;
    const pooled = new Map<string, number>();
    for (const value of [...a, ...b]) pooled.set(value, (pooled.get(value) ?? 0) + 1 / (2 * n));
    const chance = [...pooled.values()].reduce((sum, p) => sum + p * p, 0);
    const pi = (agreeing - chance) / (1 - chance);
    expect(krippendorffAlpha([a, b]).alpha).toBeCloseTo(1 - ((1 - pi) * (2 * n - 1)) / (2 * n), 12);
  });

  it('refuses fewer than two raters, values outside `values`, and strings at the interval level', () => {
    expect(() => krippendorffAlpha([[1, 2]])).toThrow(/at least 2 raters/);
    expect(() =>
      krippendorffAlpha(
        [
          [1, 2],
          [1, 3],
        ],
        { values: [1, 2] },
      ),
    ).toThrow(/value 3/);
    expect(() => krippendorffAlpha([['a'], ['b']], { level: 'interval' })).toThrow(/numeric/);
  });
});
