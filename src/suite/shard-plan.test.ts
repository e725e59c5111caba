import { describe, expect, it } from 'vitest';
import { planSuiteShards, type ShardUnit, shardCells, shardUnits } from './shard-plan.js';

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

/** A cell of the test: its tasks' doc counts (what `assay run` selects in it). */
interface TestCell {
  name: string;
  docs: number[];
}

/** The docs of a task a unit runs: all, or positions p with p mod count = index (evaluate/shard.ts). */
function runs(unit: ShardUnit<TestCell>, position: number): boolean {
  return !unit.slice || position % unit.slice.count === unit.slice.index;
}

function docsOf(unit: ShardUnit<TestCell>): number {
  return unit.cell.docs.reduce(
    (sum, total) => sum + Array.from({ length: total }, (_, p) => p).filter((p) => runs(unit, p)).length,
    0,
  );
}

describe('planSuiteShards', () => {
  it('gives a suite with fewer cells than shards one doc slice per shard, cells in order', () => {
    const a = { name: 'a', docs: [10] };
    const b = { name: 'b', docs: [7] };
    expect(planSuiteShards([a, b], 3)).toEqual([
      [{ cell: a, slice: { index: 0, count: 2 } }],
      [{ cell: a, slice: { index: 1, count: 2 } }],
      [{ cell: b }],
    ]);
    expect(planSuiteShards([a], 3)).toEqual(
      [0, 1, 2].map((index) => [{ cell: a, slice: { index, count: 3 } }]),
    );
    // As many shards as cells or fewer: whole cells, as before.
    expect(planSuiteShards([a, b], 2)).toEqual([[{ cell: a }], [{ cell: b }]]);
    expect(shardUnits([a, b], { index: 1, count: 3 })).toEqual([{ cell: a, slice: { index: 1, count: 2 } }]);
  });

  it('runs every doc of every cell in exactly one shard, every shard has work, and the load is balanced', () => {
    // Cells of one to three tasks with doc counts from a fixed sequence (the plan never reads them).
    const sizes = [13, 1, 40, 7, 22, 5, 31, 2, 18, 9];
    for (let cellCount = 1; cellCount <= 7; cellCount++)
      for (let shardCount = 1; shardCount <= 12; shardCount++) {
        const label = `${cellCount} cells, ${shardCount} shards`;
        const cells: TestCell[] = Array.from({ length: cellCount }, (_, c) => ({
          name: `cell${c}`,
          docs: Array.from({ length: 1 + (c % 3) }, (_, t) => sizes[(c * 3 + t) % sizes.length]),
        }));
        const plan = planSuiteShards(cells, shardCount);
        expect(plan, label).toHaveLength(shardCount);
        // Each shard computes its own part alone; together they are the plan.
        for (let index = 0; index < shardCount; index++)
          expect(shardUnits(cells, { index, count: shardCount }), label).toEqual(plan[index]);
        // Per doc, the shards whose units run it: exactly one, once.
        const runBy: string[] = [];
        for (const cell of cells) {
          const units = plan.flatMap((shardUnits, shard) =>
            shardUnits.filter((unit) => unit.cell === cell).map((unit) => ({ unit, shard })),
          );
          for (const [task, total] of cell.docs.entries())
            for (let position = 0; position < total; position++) {
              const shards = units.filter(({ unit }) => runs(unit, position)).map(({ shard }) => shard);
              runBy.push(`${cell.name} task ${task} doc ${position}: ${shards.join(',')}`);
              if (shards.length !== 1) expect.fail(`${label}: ${runBy.at(-1)}`);
            }
        }
        expect(runBy, label).toHaveLength(
          cells.reduce((sum, cell) => sum + cell.docs.reduce((docs, total) => docs + total, 0), 0),
        );
        // One slice count per cell, its slices 0..k−1 each once.
        for (const cell of cells) {
          const slices = plan.flat().filter((unit) => unit.cell === cell);
          const count = slices[0].slice?.count ?? 1;
          expect(
            slices.map((unit) => unit.slice?.index ?? 0).sort((x, y) => x - y),
            label,
          ).toEqual(Array.from({ length: count }, (_, index) => index));
        }
        for (const units of plan) expect(units.length, label).toBeGreaterThanOrEqual(1);
        if (cellCount >= shardCount) {
          // Whole cells, their counts within one of each other.
          const counts = plan.map((units) => units.length);
          expect(Math.max(...counts) - Math.min(...counts), label).toBeLessThanOrEqual(1);
          expect(
            plan.flat().every((unit) => unit.slice === undefined),
            label,
          ).toBe(true);
        } else {
          // One unit per shard; a cell is cut into ⌊N/C⌋ or ⌈N/C⌉ slices, so a shard runs at most the
          // docs of ⌈d/⌊N/C⌋⌉ per task of its cell: equal cells are balanced within that ratio.
          const floor = Math.floor(shardCount / cellCount);
          for (const units of plan) {
            expect(units, label).toHaveLength(1);
            const [unit] = units;
            expect([floor, floor + 1], label).toContain(unit.slice?.count ?? 1);
            const bound = unit.cell.docs.reduce((sum, total) => sum + Math.ceil(total / floor), 0);
            expect(docsOf(unit), label).toBeLessThanOrEqual(bound);
          }
          const equal = Array.from({ length: cellCount }, (_, c) => ({ name: `e${c}`, docs: [120] }));
          const loads = planSuiteShards(equal, shardCount).map((units) => docsOf(units[0]));
          expect(Math.max(...loads) / Math.min(...loads), label).toBeLessThanOrEqual(
            Math.ceil(120 / floor) / Math.floor(120 / (floor + 1)),
          );
          expect(
            loads.reduce((sum, load) => sum + load, 0),
            label,
          ).toBe(120 * cellCount);
        }
      }
  });
});

describe('planSuiteShards with a large task set (shard_slices)', () => {
  it('cuts its cells into the declared slices, each unit to the least-loaded shard without a slice of its cell', () => {
    const big = { name: 'big', docs: [90] };
    const b = { name: 'b', docs: [7] };
    const c = { name: 'c', docs: [8] };
    const declared = (cell: TestCell) => (cell === big ? 2 : undefined);
    expect(planSuiteShards([big, b, c], 2, declared)).toEqual([
      [{ cell: big, slice: { index: 0, count: 2 } }, { cell: b }],
      [{ cell: big, slice: { index: 1, count: 2 } }, { cell: c }],
    ]);
    // At most the shard count: a suite file written for 4 shards runs on 2.
    expect(planSuiteShards([big], 2, () => 4)).toEqual([
      [{ cell: big, slice: { index: 0, count: 2 } }],
      [{ cell: big, slice: { index: 1, count: 2 } }],
    ]);
    // Undeclared, the plan is the one without the option.
    expect(planSuiteShards([big, b, c], 2, () => undefined)).toEqual(planSuiteShards([big, b, c], 2));
  });

  it('runs every doc once, never two slices of a cell on one shard, every shard busy, unit counts within one', () => {
    const sizes = [13, 1, 40, 7, 22, 5, 31, 2, 18, 9];
    for (let cellCount = 1; cellCount <= 6; cellCount++)
      for (let shardCount = 1; shardCount <= 9; shardCount++)
        for (let pattern = 0; pattern < 4; pattern++) {
          const label = `${cellCount} cells, ${shardCount} shards, pattern ${pattern}`;
          const cells: TestCell[] = Array.from({ length: cellCount }, (_, c) => ({
            name: `cell${c}`,
            docs: [sizes[(c * 3 + pattern) % sizes.length]],
          }));
          // Some cells declare 2..5 slices, which ones depending on the pattern.
          const declared = (cell: TestCell) => {
            const c = cells.indexOf(cell);
            return (c + pattern) % 3 === 0 ? 2 + ((c + pattern) % 4) : undefined;
          };
          const plan = planSuiteShards(cells, shardCount, declared);
          expect(plan, label).toHaveLength(shardCount);
          for (let index = 0; index < shardCount; index++)
            expect(shardUnits(cells, { index, count: shardCount }, declared), label).toEqual(plan[index]);
          for (const cell of cells) {
            const units = plan.flatMap((shard, index) =>
              shard.filter((unit) => unit.cell === cell).map((unit) => ({ unit, index })),
            );
            const count = units[0].unit.slice?.count ?? 1;
            expect(count, label).toBeLessThanOrEqual(shardCount);
            if (declared(cell) !== undefined)
              expect(count, label).toBeGreaterThanOrEqual(Math.min(shardCount, declared(cell) as number));
            expect(new Set(units.map(({ index }) => index)).size, `${label}: ${cell.name}`).toBe(
              units.length,
            );
            // How many of its units run each doc: one each.
            const runsOf = Array.from(
              { length: cell.docs[0] },
              (_, position) => units.filter(({ unit }) => runs(unit, position)).length,
            );
            expect(runsOf, `${label}: ${cell.name}`).toEqual(runsOf.map(() => 1));
          }
          const counts = plan.map((units) => units.length);
          expect(Math.min(...counts), label).toBeGreaterThanOrEqual(1);
          expect(Math.max(...counts) - Math.min(...counts), label).toBeLessThanOrEqual(1);
        }
  });
});
