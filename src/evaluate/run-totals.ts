/**
 * A run's totals put together from parts evaluated apart (chunked-task.ts): errored samples by cause and
 * request counts and times by type, merged as one pass over every part in order would have made them.
 */
import type { ErrorCauses } from './errored-samples.js';
import type { RequestLatency } from './execute.js';

/** Error counts of parts in run order (tasks, then a task's chunks): sums, and the first error of the first part. */
export function mergeErrorCauses(parts: readonly ErrorCauses[]): ErrorCauses {
  const merged: ErrorCauses = { byTask: {}, byCause: {}, first: null };
  for (const part of parts) {
    for (const [task, count] of Object.entries(part.byTask))
      merged.byTask[task] = (merged.byTask[task] ?? 0) + count;
    for (const [cause, count] of Object.entries(part.byCause))
      merged.byCause[cause] = (merged.byCause[cause] ?? 0) + count;
    merged.first ??= part.first;
  }
  return merged;
}

const REQUEST_TYPES = ['loglikelihood', 'loglikelihood_rolling', 'generate_until'] as const;

/** Per request type, the wall seconds and requests of every part, in execute's order of types. */
export function mergeRequestLatency(parts: readonly RequestLatency[]): RequestLatency {
  const merged: RequestLatency = {};
  for (const type of REQUEST_TYPES) {
    for (const part of parts) {
      const own = part[type];
      if (!own) continue;
      const sum = merged[type];
      merged[type] = sum
        ? { seconds: sum.seconds + own.seconds, requests: sum.requests + own.requests }
        : { ...own };
    }
  }
  return merged;
}
