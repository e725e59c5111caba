/**
 * The async scoring stage for metrics that run code. Sync scoring (score.ts) leaves a CodeScoreRequest
 * where such a metric's value goes; this stage runs every request's programs through the sandbox pool
 * at once (the pool bounds concurrency), then replaces each request with its numbers and records the
 * per-program outcomes on the doc for the sample log. Aggregation runs after, on plain numbers.
 */
import { AssayError } from '../errors.js';
import { type CodeScoreRequest, isCodeScoreRequest, scoreCodeRequest } from '../sandbox/code-score.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import type { CodeOutcome } from '../sandbox/types.js';
import type { RunListener } from './events.js';
import type { ScoredDoc, ScoredTask } from './score.js';

/** A scored doc whose metrics ran code: its outcomes, one per program, go to the sample log. */
export type ExecutedDoc = ScoredDoc & { execution?: CodeOutcome[] };

interface Pending {
  doc: ExecutedDoc;
  key: string;
  request: CodeScoreRequest;
}

function pendingRequests(scored: ScoredTask): Pending[] {
  const pending: Pending[] = [];
  for (const docs of scored.byFilter.values()) {
    for (const doc of docs) {
      for (const [key, value] of Object.entries(doc.metrics)) {
        if (isCodeScoreRequest(value)) pending.push({ doc, key, request: value });
      }
    }
  }
  return pending;
}

/** Runs the code of one scored task; returns how many programs ran. */
export async function runCodeStage(scored: ScoredTask, sandbox: CodeSandbox | undefined, listener?: RunListener): Promise<number> {
  const pending = pendingRequests(scored);
  if (pending.length === 0) return 0;
  const task = scored.plan.task.name;
  if (!sandbox) {
    throw new AssayError(
      'needs_sandbox',
      `task ${task} runs model-written code, but no code sandbox was set up for this run (mark the task unsafe_code: true and pass --confirm_run_unsafe_code)`,
      { location: { task } },
    );
  }
  const programs = pending.reduce((total, item) => total + item.request.programs.length, 0);
  listener?.({ type: 'phase', phase: 'scoring', detail: `${task}: running ${programs} programs in the ${sandbox.options.mode} sandbox` });
  const limits = sandbox.options.limits;
  const results = await Promise.all(
    pending.map(async (item) => {
      const runs = await Promise.all(item.request.programs.map((program) => sandbox.run(program)));
      return scoreCodeRequest(item.request, runs, limits);
    }),
  );
  pending.forEach((item, index) => {
    const { metrics, outcomes } = results[index];
    delete item.doc.metrics[item.key];
    Object.assign(item.doc.metrics, metrics);
    item.doc.execution = [...(item.doc.execution ?? []), ...outcomes];
  });
  return programs;
}
