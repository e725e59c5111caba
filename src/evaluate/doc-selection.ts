/**
 * Which docs of a task a run evaluates, in the order aggregation sees them: `samples` as given (each id
 * checked against the split), else the first sampleSize(limit) ids; then a shard's slice of those. The
 * planner selects with it, and `assay merge` rebuilds a single run's order with the same function.
 */
import { AssayError } from '../errors.js';
import { type Limit, sampleSize } from './limit.js';
import { type Shard, shardDocIds } from './shard.js';

export interface DocSelection {
  /** Per-task doc ids to evaluate (lm-eval's --samples); exclusive with limit. */
  samples?: Record<string, number[]>;
  /** A count of docs, or a share of each task (sampleSize's forms). */
  limit?: Limit;
  /** This shard's slice of the selected docs (after samples / limit). */
  shard?: Shard;
}

/** The doc ids of a task with `total` docs in its evaluation split, in evaluation order. */
export function selectDocIds(task: string, total: number, selection: DocSelection): number[] {
  const requested = selection.samples?.[task];
  let docIds: number[];
  if (requested) {
    for (const id of requested) {
      if (!Number.isInteger(id) || id < 0 || id >= total) {
        throw new AssayError(
          'bad_option',
          `\`samples\`: task ${task} has no doc ${id} (it has ${total} docs)`,
          {
            location: { task, docId: id },
          },
        );
      }
    }
    docIds = requested;
  } else {
    docIds = Array.from({ length: sampleSize(total, selection.limit) }, (_, i) => i);
  }
  return shardDocIds(docIds, selection.shard);
}
