/**
 * The async scoring stage for metrics that run code. Sync scoring (score.ts) leaves a CodeScoreRequest
 * where such a metric's value goes; this stage runs every request's programs through the sandbox pool
 * at once (the pool bounds concurrency) and returns the scored task anew: each doc that held requests is
 * a new doc with the requests' numbers in their place and the per-program outcomes for the sample log.
 * The docs it was given are left as they were. Aggregation runs after, on plain numbers.
 */
import { AssayError } from '../errors.js';
import { type RunListener, startOperation } from '../events.js';
import { type CodeScoreRequest, codeScoreProblem, isCodeScoreMarked } from '../sandbox/code-score-request.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import type { CodeOutcome } from '../sandbox/types.js';
import { leafTasks, type TaskNode } from '../tasks/task.js';
import type { ResolvedRunOptions, RunOptionsInput } from './run-options.js';
import type { ScoredDoc, ScoredTask } from './score.js';

/** A scored doc whose metrics ran code: its outcomes, one per program, go to the sample log. */
export type ExecutedDoc = ScoredDoc & { execution?: CodeOutcome[] };

interface Pending {
  doc: ScoredDoc;
  key: string;
  request: CodeScoreRequest;
}

function pendingRequests(scored: ScoredTask): Pending[] {
  const pending: Pending[] = [];
  for (const docs of scored.byFilter.values()) {
    for (const doc of docs) {
      for (const [key, value] of Object.entries(doc.metrics)) {
        if (!isCodeScoreMarked(value)) continue;
        const problem = codeScoreProblem(value);
        if (problem) {
          throw new AssayError(
            'invalid_config',
            `metric ${key} returned an invalid code-score request: ${problem}`,
            {
              location: { task: scored.plan.task.name, docId: doc.docId },
            },
          );
        }
        pending.push({ doc, key, request: value as unknown as CodeScoreRequest });
      }
    }
  }
  return pending;
}

/** Runs the code of one scored task: the task with code metrics scored, and how many programs ran. */
export async function runCodeStage(
  scored: ScoredTask,
  sandbox: CodeSandbox | undefined,
  listener?: RunListener,
): Promise<{ scored: ScoredTask; programs: number }> {
  const pending = pendingRequests(scored);
  if (pending.length === 0) return { scored, programs: 0 };
  const task = scored.plan.task.name;
  if (!sandbox) {
    throw new AssayError(
      'needs_sandbox',
      `task ${task} runs model-written code, but no code sandbox was set up for this run (mark the task unsafe_code: true and pass \`confirmRunUnsafeCode\`)`,
      { location: { task } },
    );
  }
  const programs = pending.reduce((total, item) => total + item.request.programs.length, 0);
  listener?.({
    type: 'phase',
    phase: 'scoring',
    detail: `${task}: running ${programs} programs in the ${sandbox.options.mode} sandbox`,
  });
  const { runCodeRequest } = await import('../sandbox/code-score.js');
  const operation = startOperation(listener, {
    id: `programs:${task}`,
    label: `${task}: programs run`,
    unit: 'programs',
    total: programs,
  });
  let done = 0;
  const results = await Promise.all(
    pending.map((item) =>
      runCodeRequest(sandbox, item.request).then((result) => {
        done += item.request.programs.length;
        operation.progress(done);
        return result;
      }),
    ),
  ).finally(() => operation.end());
  // Per doc, its requests' numbers and outcomes in request order (a doc may hold several code metrics).
  const executed = new Map<ScoredDoc, ExecutedDoc>();
  pending.forEach((item, index) => {
    const { metrics, outcomes } = results[index];
    const done = executed.get(item.doc) ?? { ...item.doc, metrics: { ...item.doc.metrics } };
    delete done.metrics[item.key];
    Object.assign(done.metrics, metrics);
    done.execution = [...(done.execution ?? []), ...outcomes];
    executed.set(item.doc, done);
  });
  const byFilter = new Map(
    [...scored.byFilter].map(([filter, docs]) => [filter, docs.map((doc) => executed.get(doc) ?? doc)]),
  );
  return { scored: { ...scored, byFilter }, programs };
}

/** The run's options (run-options.ts) that say whether and how model-written code runs. */
export type CodeExecutionOptions = Pick<
  RunOptionsInput,
  'confirmRunUnsafeCode' | 'unsafeCodeWithoutSandbox' | 'sandbox'
>;

/**
 * Checks the run's unsafe_code tasks against the user's confirmation, as lm-eval does, and sets up the
 * sandbox they need before any model request is made, so that a missing bubblewrap fails fast. The
 * sandbox's code is loaded only for a run that has such a task.
 */
export async function prepareCodeSandbox(
  nodes: TaskNode[],
  options: Pick<
    ResolvedRunOptions,
    'confirmRunUnsafeCode' | 'unsafeCodeWithoutSandbox' | 'sandbox' | 'predictOnly'
  >,
  logger?: { warn(message: string): void },
): Promise<CodeSandbox | undefined> {
  const unsafe = [
    ...new Set(
      nodes
        .flatMap(leafTasks)
        .filter((task) => task.config.unsafe_code)
        .map((task) => task.name),
    ),
  ];
  if (unsafe.length === 0) return undefined;
  if (!options.confirmRunUnsafeCode) {
    throw new AssayError(
      'needs_confirmation',
      `task ${unsafe.join(', ')} ${unsafe.length > 1 ? 'are' : 'is'} marked unsafe_code: it runs model-written code. Pass \`confirmRunUnsafeCode\` to run it (in the bubblewrap sandbox)`,
      { location: { task: unsafe[0] } },
    );
  }
  // Predict-only runs score nothing, so they execute nothing.
  if (options.predictOnly) return undefined;
  const { CodeSandbox, UNSAFE_WARNING } = await import('../sandbox/sandbox.js');
  const sandbox = CodeSandbox.create({
    ...options.sandbox,
    unsafeWithoutSandbox: options.unsafeCodeWithoutSandbox,
  });
  if (sandbox.options.mode === 'rlimits_only') logger?.warn(UNSAFE_WARNING);
  return sandbox;
}
