import { AssayError } from '../errors.js';
import type { ModelBackend } from '../models/backend.js';
import type { JudgeReport } from '../results/results-file.js';
import type { TaskNode } from '../tasks/task.js';
import { uniqueLeaves } from '../tasks/task.js';
import {
  aggregateGroup,
  aggregateTask,
  aggregationSpec,
  allGroups,
  type GroupResult,
  type TaskResult,
} from './aggregate.js';
import { runCodeStage } from './code-stage.js';
import { type ErrorCauses, errorCauses } from './errored-samples.js';
import { executeRequests, type RequestLatency } from './execute.js';
import { hasJudgeRequests, judgeBlocks } from './judge-blocks.js';
import type { JudgePanel } from './judge-stage.js';
import type { PerplexityReport } from './perplexity/types.js';
import { verifyPins } from './pins.js';
import { planTask, type TaskPlan } from './plan.js';
import { type TaskLatency, taskLatency } from './request-timing.js';
import type { Instance } from './requests.js';
import type { Responses } from './responses.js';
import type { RunOptions } from './run-options.js';
import { type RunRecord, runRecord } from './run-record.js';
import { type ScoredTask, scoreTask } from './score.js';
import { type ThinkingCount, thinkingCounts, truncatedThinkingWarning } from './thinking-counts.js';

/**
 * The evaluation stage's output: everything the report stage (report/run-output.ts) turns into
 * results.json and the sample logs, as plain data.
 */
export interface EvaluatedRun {
  record: RunRecord;
  nodes: TaskNode[];
  plans: TaskPlan[];
  /** Every request's answers, by task and request id (the plans hold requests only). */
  responses: Responses;
  /** Per task (in plan order): the scored docs of every filter. */
  scored: ScoredTask[];
  taskResults: TaskResult[];
  groupResults: GroupResult[];
  /** Per request type: wall seconds and requests. */
  latency: RequestLatency;
  /** Per task: its own requests' wall times (request-timing.ts). */
  taskLatency: Record<string, TaskLatency>;
  errors: ErrorCauses;
  /** loglikelihood_rolling tasks' perplexity blocks. */
  perplexity: Record<string, PerplexityReport>;
  /** Tasks answered by a reasoning model: generations, and those that hit max_gen_toks while thinking. */
  thinking: Record<string, ThinkingCount>;
  /** Tasks with `llm_judge` metrics: each judge, its rubric's sha256 and, with judge_labels, its statistics. */
  judges: Record<string, JudgeReport[]>;
  /** Seconds since the epoch when the run started. */
  startDate: number;
  seconds: number;
  /** Requests that failed and made errored samples; the CLI exits 1 when any did. */
  erroredSamples: number;
}

/**
 * A shard of a judged task is refused before any request: `assay merge` cannot rebuild the judge statistics
 * (agreement, PPI++, usage need every doc's judge score beside the labels), so the shards' work would be lost
 * at the merge.
 */
function refuseJudgedShard(
  tasks: ReturnType<typeof uniqueLeaves>,
  shard: { index: number; count: number },
): void {
  const [block] = judgeBlocks(tasks);
  if (!block) return;
  throw new AssayError(
    'bad_option',
    `task ${block.task.name} has an llm_judge metric (${block.field}), and shard ${shard.index}/${shard.count} could not be merged: assay merge does not rebuild the judge statistics (agreement, PPI++, usage) from shards; run the judged tasks unsharded`,
    { location: { task: block.task.name, field: block.field } },
  );
}

/** plan → run → filter → score → aggregate, for tasks already resolved and a backend already created. */
export async function runEvaluation(
  backend: ModelBackend,
  nodes: TaskNode[],
  options: RunOptions,
): Promise<EvaluatedRun> {
  const started = performance.now();
  const startDate = Date.now() / 1000;
  const tasks = uniqueLeaves(nodes);
  if (options.shard && !options.predictOnly) refuseJudgedShard(tasks, options.shard);
  const listener = options.listener;
  listener?.({ type: 'run-start', tasks: tasks.map((task) => task.name) });

  listener?.({ type: 'phase', phase: 'building' });
  const plans: TaskPlan[] = [];
  for (const task of tasks) {
    plans.push(
      await planTask(task, {
        limit: options.limit,
        samples: options.samples,
        shard: options.shard,
        mcMode: options.mcMode,
        numFewshot: options.numFewshot,
        fewshotSeed: options.seeds.fewshot ?? 1234,
        systemInstruction: options.systemInstruction,
        applyChatTemplate: options.applyChatTemplate,
        fewshotAsMultiturn: options.fewshotAsMultiturn,
        genKwargs: options.genKwargs,
        backend,
        listener,
      }),
    );
  }

  // Every doc is loaded now (few-shot pools included), so the content hashes are known: a pinned task
  // that changed stops the run before any model request.
  verifyPins(options.pins, tasks);

  // Perplexity modes are settled now, so a backend that cannot serve one stops the run before any request.
  // The stage does nothing for a run without loglikelihood_rolling tasks, which so never loads it.
  const perplexity = plans.some((plan) => plan.task.config.output_type === 'loglikelihood_rolling')
    ? await (await import('./perplexity/stage.js')).PerplexityStage.plan(backend, plans, options.perplexity)
    : undefined;

  // Judge models and labels files are checked and opened now, before the run's own requests; a
  // predict-only run scores nothing, so it asks no judge.
  // The stage itself is loaded only for a run that has a judge block.
  const judges =
    options.predictOnly || judgeBlocks(tasks).length === 0
      ? undefined
      : await (await import('./judge-stage.js')).prepareJudges(tasks, {
          cachePath: options.useCache,
          listener,
          warn: (message) => listener?.({ type: 'warning', message }),
        });
  try {
    return await evaluatePlans(backend, nodes, options, { plans, perplexity, judges, started, startDate });
  } finally {
    await judges?.close();
  }
}

async function evaluatePlans(
  backend: ModelBackend,
  nodes: TaskNode[],
  options: RunOptions,
  planned: {
    plans: TaskPlan[];
    perplexity: Awaited<ReturnType<typeof import('./perplexity/stage.js').PerplexityStage.plan>> | undefined;
    judges: JudgePanel | undefined;
    started: number;
    startDate: number;
  },
): Promise<EvaluatedRun> {
  const { plans, perplexity, judges, started, startDate } = planned;
  const listener = options.listener;
  listener?.({ type: 'phase', phase: 'requests' });
  const instances: Instance[] = [];
  for (const plan of plans)
    for (const doc of plan.docs)
      for (const instance of doc.instances) if (!perplexity?.ownsInstance(instance)) instances.push(instance);
  if (options.maxLatencyS !== undefined) {
    const windowed = plans.find((plan) =>
      plan.docs.some((doc) => doc.instances.some((instance) => perplexity?.ownsInstance(instance))),
    );
    if (windowed) {
      throw new AssayError(
        'bad_option',
        `\`maxLatencyS\` caps requests; task ${windowed.task.name} is scored in token windows (\`perplexity.mode\` strided or chunked), which it cannot time one by one: drop one of the two`,
        { location: { task: windowed.task.name } },
      );
    }
  }
  const executed = await executeRequests(backend, instances, listener, { maxLatencyS: options.maxLatencyS });
  const { latency } = executed;
  // Token-window tasks' answers come from the perplexity stage; every other task's from execute.
  const responses = perplexity
    ? new Map([...executed.responses, ...(await perplexity.run(backend, executed.responses, listener))])
    : executed.responses;
  const thinking = thinkingCounts(plans, responses);
  for (const plan of plans) {
    const count = thinking[plan.task.name];
    if (count?.truncated)
      listener?.({
        type: 'warning',
        message: truncatedThinkingWarning(plan.task.name, count, plan.generation?.maxGenToks),
      });
  }

  listener?.({ type: 'phase', phase: 'scoring' });
  const taskResults: TaskResult[] = [];
  let erroredSamples = 0;
  const scoredTasks: ScoredTask[] = [];
  const judgeReports: Record<string, JudgeReport[]> = {};
  for (const plan of plans) {
    const fromScoring = await scoreTask(plan, responses, options.predictOnly);
    const annotated = perplexity ? perplexity.annotate(fromScoring) : fromScoring;
    const { scored: executed } = await runCodeStage(annotated, options.codeSandbox, listener);
    // Without judges or judge requests the stage would hand the task back unchanged, with no reports.
    const { scored, reports } =
      judges || hasJudgeRequests(executed)
        ? await (await import('./judge-stage.js')).runJudgeStage(executed, judges, listener)
        : { scored: executed, reports: [] };
    if (reports.length) judgeReports[plan.task.name] = reports;
    scoredTasks.push(scored);
    const result = await aggregateTask(scored, aggregationSpec(scored.plan), {
      bootstrapIters: options.bootstrapIters,
      predictOnly: options.predictOnly,
    });
    erroredSamples += result.erroredSamples;
    taskResults.push(result);
  }
  const byName = new Map(taskResults.map((result) => [result.name, result]));
  const groupResults = (
    await Promise.all(allGroups(nodes).map((group) => aggregateGroup(group, byName)))
  ).filter((result): result is GroupResult => result !== undefined);

  const run: EvaluatedRun = {
    // Built once, now: a served backend's usage covers the whole run.
    record: runRecord(backend, options),
    nodes,
    plans,
    responses,
    scored: scoredTasks,
    taskResults,
    groupResults,
    latency,
    taskLatency: taskLatency(executed.responses),
    errors: errorCauses(scoredTasks, responses),
    perplexity: perplexity?.report(scoredTasks) ?? {},
    thinking,
    judges: judgeReports,
    startDate,
    seconds: (performance.now() - started) / 1000,
    erroredSamples,
  };
  listener?.({ type: 'run-end', seconds: (performance.now() - started) / 1000 });
  return run;
}
