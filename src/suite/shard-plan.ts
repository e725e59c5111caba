/**
 * Which part of a suite each of N shards runs, computed from the (selected) cells alone, so every shard of
 * a Slurm array or an Indexed Job computes the same plan without talking to the others. A unit is a whole
 * cell, or the j-th of k doc slices of one (its run takes `shard: { index: j, count: k }`, exactly as
 * `assay run --shard j/k`: every task's selected docs at positions p with p mod k = j).
 *
 * - As many cells as shards or more: whole cells, the shard's contiguous, near-equal slice of them in the
 *   suite's order (models one after another), so a shard starts few backends.
 * - Fewer cells (C) than shards (N): every shard runs one unit. Each cell is cut into k = ⌊N/C⌋ doc slices,
 *   the first N mod C cells into one more, and the units in the suite's order go to shards 0..N−1. A cell
 *   is then run by k shards at once, each doing 1/k of its docs.
 *
 * Cells are weighed alike: the plan is made before any data is loaded (a cell's doc count is known only
 * after its tasks load), so a task set much larger than the others is split into several in the suite file.
 */
export interface SuiteShard {
  /** From 0. */
  index: number;
  count: number;
}

export interface ShardUnit<T> {
  cell: T;
  /** The cell's doc slice this unit runs; absent: the whole cell. */
  slice?: SuiteShard;
}

/** The shard's cells: the index-th of `count` contiguous, near-equal slices. */
export function shardCells<T>(cells: readonly T[], shard: SuiteShard): T[] {
  const from = Math.floor((shard.index * cells.length) / shard.count);
  const to = Math.floor(((shard.index + 1) * cells.length) / shard.count);
  return cells.slice(from, to);
}

/** Every shard's units, shard by shard. */
export function planSuiteShards<T>(cells: readonly T[], count: number): ShardUnit<T>[][] {
  const cellCount = cells.length;
  if (cellCount >= count || cellCount === 0)
    return Array.from({ length: count }, (_, index) =>
      shardCells(cells, { index, count }).map((cell) => ({ cell })),
    );
  const base = Math.floor(count / cellCount);
  const extra = count % cellCount;
  return cells.flatMap((cell, position) => {
    const slices = base + (position < extra ? 1 : 0);
    return Array.from({ length: slices }, (_, index) =>
      slices === 1 ? [{ cell }] : [{ cell, slice: { index, count: slices } }],
    );
  });
}

/** The units of one shard. */
export function shardUnits<T>(cells: readonly T[], shard: SuiteShard): ShardUnit<T>[] {
  return planSuiteShards(cells, shard.count)[shard.index];
}
