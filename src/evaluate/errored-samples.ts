import { firstRequestError, type Responses, respsOf, taskResponses } from './responses.js';
import type { ScoredTask } from './score.js';

/** Which samples errored and why: counts by task and by cause, and the first error, for results.json and the console. */
export interface ErrorCauses {
  /** Task → its errored samples (tasks without any are absent). */
  byTask: Record<string, number>;
  /** `HTTP 500`, `connection error`, `timed out`, `bad answer`, `scoring error`… → errored samples. */
  byCause: Record<string, number>;
  first: { task: string; docId: number; message: string } | null;
}

/**
 * A doc that errored under any filter is one errored sample. Its cause is the failed request's (the
 * backend names it) or, when every request was answered, `scoring error` (a metric or filter failed).
 */
export function errorCauses(tasks: ScoredTask[], responses: Responses): ErrorCauses {
  const byTask: Record<string, number> = {};
  const byCause: Record<string, number> = {};
  let first: ErrorCauses['first'] = null;
  for (const scored of tasks) {
    const messages = new Map<number, string>();
    for (const filter of scored.filters) {
      for (const doc of scored.byFilter.get(filter) ?? []) {
        if (doc.error !== undefined && !messages.has(doc.docId)) messages.set(doc.docId, doc.error);
      }
    }
    if (messages.size === 0) continue;
    const ofTask = taskResponses(responses, scored.plan.task.name);
    for (const planned of scored.plan.docs) {
      const message = messages.get(planned.docId);
      if (message === undefined) continue;
      const failed = firstRequestError(respsOf(ofTask, planned.instances));
      const cause = failed?.cause ?? 'scoring error';
      byCause[cause] = (byCause[cause] ?? 0) + 1;
      byTask[scored.plan.task.name] = (byTask[scored.plan.task.name] ?? 0) + 1;
      first ??= { task: scored.plan.task.name, docId: planned.docId, message };
    }
  }
  return { byTask, byCause, first };
}
