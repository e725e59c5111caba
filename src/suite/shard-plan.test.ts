import { describe, expect, it } from 'vitest';
import { shardCells } from './shard-plan.js';

describe('shardCells', () => {
  it('cuts the cells into contiguous, near-equal slices that hold every cell once', () => {
    const cells = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect([0, 1, 2].map((index) => shardCells(cells, { index, count: 3 }))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f', 'g'],
    ]);
    for (const count of [1, 2, 3, 4, 7, 9]) {
      const slices = Array.from({ length: count }, (_, index) => shardCells(cells, { index, count }));
      expect(slices.flat(), `${count} shards`).toEqual(cells);
      const sizes = slices.map((slice) => slice.length);
      expect(Math.max(...sizes) - Math.min(...sizes), `${count} shards`).toBeLessThanOrEqual(1);
    }
  });
});
