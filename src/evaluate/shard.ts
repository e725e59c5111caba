import { AssayError } from '../errors.js';
import { shardFromScheduler } from './scheduler-shard.js';

/** `--shard i/N`: this run evaluates the i-th of N disjoint slices of every task's selected docs. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * What a shard run records in its manifest (`manifest.shard`) so that `assay merge` can rebuild the
 * single run: the task specs to resolve again (groups are not in results.json), and the doc selection
 * whose order the aggregation follows.
 */
export interface ShardRecord {
  index: number;
  count: number;
  /** --tasks as given on the command line. */
  tasks: string[];
  include_path: string[] | null;
  /** --samples as parsed: doc ids in the order given (aggregation follows that order). */
  samples: Record<string, number[]> | null;
  predict_only: boolean;
}

export function parseShard(
  value: string | Shard | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Shard | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return checked(value, `${value.index}/${value.count}`);
  const auto = /^\s*auto\s*(?:\/\s*(\d+)\s*)?$/.exec(value);
  if (auto) {
    const { index, count, source } = shardFromScheduler(
      env,
      auto[1] === undefined ? undefined : Number(auto[1]),
    );
    return checked({ index, count }, `${value.trim()} (${index}/${count} from ${source})`);
  }
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!match)
    throw new AssayError('bad_argument', `--shard must be i/N (e.g. 0/4), auto or auto/N, got "${value}"`);
  return checked({ index: Number(match[1]), count: Number(match[2]) }, value);
}

function checked(shard: Shard, text: string): Shard {
  if (!Number.isInteger(shard.count) || shard.count < 1) {
    throw new AssayError('bad_argument', `--shard ${text}: N must be at least 1`);
  }
  if (!Number.isInteger(shard.index) || shard.index < 0 || shard.index >= shard.count) {
    throw new AssayError(
      'bad_argument',
      `--shard ${text}: i must be between 0 and ${shard.count - 1} (shards are numbered from 0)`,
    );
  }
  return shard;
}

/**
 * The docs of one shard: those at positions k (in selection order, after --limit / --samples) with
 * k mod N = i. With --limit that is doc id mod N = i; by position rather than id, --samples lists split
 * evenly too.
 */
export function shardDocIds(docIds: number[], shard: Shard | undefined): number[] {
  if (!shard || shard.count === 1) return docIds;
  return docIds.filter((_, position) => position % shard.count === shard.index);
}

export function shardLabel(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
