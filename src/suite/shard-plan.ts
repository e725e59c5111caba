/**
 * Which part of a suite each of N shards runs, computed from the (selected) cells alone, so every shard of
 * a Slurm array or an Indexed Job computes the same plan without talking to the others. A unit is a whole
 * cell, or the j-th of k doc slices of one (its run takes `shard: { index: j, count: k }`, exactly as
 * a run's `shard: { index: j, count: k }`: every task's selected docs at positions p with p mod k = j).
 *
 * - As many cells as shards or more: whole cells, the shard's contiguous, near-equal slice of them in the
 *   suite's order (models one after another), so a shard starts few backends.
 * - Fewer cells (C) than shards (N): every shard runs one unit. Each cell is cut into k = ⌊N/C⌋ doc slices,
 *   the first N mod C cells into one more, and the units in the suite's order go to shards 0..N−1. A cell
 *   is then run by k shards at once, each doing 1/k of its docs.
 *
 * - A large task set declares `shard_slices: k` in the suite file: each of its cells runs as min(k, N) doc
 *   slices (with fewer cells than shards, at least as many as the rule above gives it). Every unit, whole
 *   cell or slice, then goes in the suite's order to the least-loaded shard that holds no other slice of
 *   its cell (the lowest index among equals), so the shards' unit counts stay within one of each other and
 *   a cell's slices run on different shards at once.
 *
 * Cells are otherwise weighed alike: the plan is made before any data is loaded (a cell's doc count is known
 * only after its tasks load, which may mean Hub downloads and Python), so the suite file says which task
 * sets are large.
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

/** A cell's declared doc slices (`shard_slices` of its task set), if any. */
export type DeclaredSlices<T> = (cell: T) => number | undefined;

/** Every shard's units, shard by shard. */
export function planSuiteShards<T>(
  cells: readonly T[],
  count: number,
  declared: DeclaredSlices<T> = () => undefined,
): ShardUnit<T>[][] {
  const cellCount = cells.length;
  const slicesOf = cells.map((cell) => Math.min(count, Math.max(1, declared(cell) ?? 1)));
  if (slicesOf.some((slices) => slices > 1)) return leastLoaded(cells, count, slicesOf);
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

/** The slice count the fewer-cells-than-shards rule gives the cell at `position`. */
function autoSlices(cellCount: number, count: number, position: number): number {
  if (cellCount === 0 || cellCount >= count) return 1;
  return Math.floor(count / cellCount) + (position < count % cellCount ? 1 : 0);
}

/** The plan with declared slices: each unit to the least-loaded shard holding no slice of its cell. */
function leastLoaded<T>(cells: readonly T[], count: number, declared: number[]): ShardUnit<T>[][] {
  const plan: ShardUnit<T>[][] = Array.from({ length: count }, () => []);
  cells.forEach((cell, position) => {
    const slices = Math.max(declared[position], autoSlices(cells.length, count, position));
    const used = new Set<number>();
    for (let index = 0; index < slices; index++) {
      let shard = -1;
      for (let candidate = 0; candidate < count; candidate++)
        if (!used.has(candidate) && (shard < 0 || plan[candidate].length < plan[shard].length))
          shard = candidate;
      used.add(shard);
      plan[shard].push(slices === 1 ? { cell } : { cell, slice: { index, count: slices } });
    }
  });
  return plan;
}

/** The units of one shard. */
export function shardUnits<T>(
  cells: readonly T[],
  shard: SuiteShard,
  declared?: DeclaredSlices<T>,
): ShardUnit<T>[] {
  return planSuiteShards(cells, shard.count, declared)[shard.index];
}
