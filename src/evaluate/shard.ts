import { AssayError } from '../errors.js';
import type { ShardRecord } from '../results/results-file.js';

/** `shard` (`--shard i/N`): this run evaluates the i-th of N disjoint slices of every task's selected docs. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * What a shard run records in its manifest (`manifest.shard`) so that `assay merge` can rebuild the
 * single run: the task specs to resolve again (groups are not in results.json), and the doc selection
 * whose order the aggregation follows. The results contract's type.
 */
export type { ShardRecord };

/** Checks a shard given to the library: a count of at least 1 and an index below it. */
export function checkShard(shard: Shard): Shard {
  const { index, count } = shard;
  if (!Number.isInteger(count) || count < 1) {
    throw new AssayError('bad_option', `\`shard.count\` must be an integer of at least 1, got ${count}`, {
      location: { field: 'shard' },
    });
  }
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new AssayError(
      'bad_option',
      `\`shard.index\` must be an integer between 0 and ${count - 1} (shards are numbered from 0), got ${index}`,
      { location: { field: 'shard' } },
    );
  }
  return { index, count };
}

/**
 * The docs of one shard: those at positions k (in selection order, after `limit` / `samples`) with
 * k mod N = i. With a limit that is doc id mod N = i; by position rather than id, `samples` lists split
 * evenly too.
 */
export function shardDocIds(docIds: number[], shard: Shard | undefined): number[] {
  if (!shard || shard.count === 1) return docIds;
  return docIds.filter((_, position) => position % shard.count === shard.index);
}

export function shardLabel(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
