import { describe, expect, it } from 'vitest';
import { columnWinRates, meanWinRates } from './win-rate.js';

describe("HELM's win rate", () => {
  it('counts strictly worse rows and half of the equal ones, over the others (by hand)', () => {
    // 0.9 beats all 3; each 0.5 beats 0.1 and ties the other 0.5: (1 + 1/2)/3; 0.1 beats none.
    expect(columnWinRates([0.9, 0.5, 0.5, 0.1], true)).toEqual([1, 0.5, 0.5, 0]);
    expect(columnWinRates([0.9, 0.5, 0.5, 0.1], false)).toEqual([0, 0.5, 0.5, 1]);
    // Rows without a value take no part; a column of one value is skipped.
    expect(columnWinRates([0.2, null, 0.4], true)).toEqual([0, null, 1]);
    expect(columnWinRates([0.2, null, null], true)).toEqual([null, null, null]);
  });

  it('averages each row over the columns where it has a win rate', () => {
    const table = [
      [0.9, 10, 0.3],
      [0.5, 20, null],
      [0.1, 30, 0.7],
    ];
    // Column 2 (lower is better): 10 wins. Row 1 has two columns, the others three.
    expect(meanWinRates(table, [true, false, true])).toEqual([
      (1 + 1 + 0) / 3,
      (0.5 + 0.5) / 2,
      (0 + 0 + 1) / 3,
    ]);
  });

  it('matches the win rates of every ordering of four distinct values (exact enumeration)', () => {
    // With distinct values the win rate of the r-th best of K is (K − r)/(K − 1), whatever the order.
    const values = [0.1, 0.2, 0.3, 0.4];
    const orders: number[][] = [];
    const permute = (rest: number[], prefix: number[]) => {
      if (rest.length === 0) orders.push(prefix);
      for (const [index, value] of rest.entries())
        permute([...rest.slice(0, index), ...rest.slice(index + 1)], [...prefix, value]);
    };
    permute(values, []);
    expect(orders).toHaveLength(24);
    for (const order of orders) {
      const rates = columnWinRates(order, true);
      order.forEach((value, index) => {
        const rank = 4 - values.indexOf(value);
        expect(rates[index]).toBeCloseTo((4 - rank) / 3, 15);
      });
    }
  });
});
