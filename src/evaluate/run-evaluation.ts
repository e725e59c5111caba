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
import { chunkable, type EvaluatedChunk, evaluateInChunks, tightenHeapGrowth } from './chunked-task.js';
import { runCodeStage } from './code-stage.js';
import { type ErrorCauses, errorCauses } from './errored-samples.js';
import { executeRequests, type RequestLatency } from './execute.js';
import { hasJudgeRequests, judgeBlocks } from './judge-blocks.js';
import type { JudgePanel } from './judge-stage.js';
import type { PerplexityReport } from './perplexity/types.js';
import { verifyPins } from './pins.js';
import { createTaskPlanner, type TaskPlan, type TaskPlanner } from './plan.js';
import { type TaskLatency, taskLatency } from './request-timing.js';
import type { Instance } from './requests.js';
import type { Responses } from './responses.js';
import type { RunOptions } from './run-options.js';
import { type RunRecord, runRecord } from './run-record.js';
import { mergeErrorCauses, mergeRequestLatency } from './run-totals.js';
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

/**
 * How a run evaluates its large tasks a chunk of docs at a time (chunked-task.ts), so that what it holds
 * does not grow with their docs: the composition root sets it when each chunk's sample lines can be
 * written as it finishes (run/evaluate.ts).
 */
export interface Chunking {
  /** Docs per chunk: a task with more selected docs than this is evaluated in chunks when it can be. */
  size: number;
  /** Each chunk of a chunked task once scored, in doc order; nothing of it is kept after this returns. */
  onChunk: (chunk: EvaluatedChunk) => void | Promise<void>;
}

export type { EvaluatedChunk };

/** plan → run → filter → score → aggregate, for tasks already resolved and a backend already created. */
export async function runEvaluation(
  backend: ModelBackend,
  nodes: TaskNode[],
  options: RunOptions,
  chunking?: Chunking,
): Promise<EvaluatedRun> {
  const started = performance.now();
  const startDate = Date.now() / 1000;
  const tasks = uniqueLeaves(nodes);
  if (options.shard && !options.predictOnly) refuseJudgedShard(tasks, options.shard);
  const listener = options.listener;
  listener?.({ type: 'run-start', tasks: tasks.map((task) => task.name) });

  listener?.({ type: 'phase', phase: 'building' });
  // Set once a task is to be chunked (chunked-task.ts), put back when the run is done.
  const heapGrowth: { restore?: () => void } = {};
  try {
    return await planAndEvaluate(backend, nodes, options, chunking, { started, startDate, heapGrowth });
  } finally {
    heapGrowth.restore?.();
  }
}

async function planAndEvaluate(
  backend: ModelBackend,
  nodes: TaskNode[],
  options: RunOptions,
  chunking: Chunking | undefined,
  timing: { started: number; startDate: number; heapGrowth: { restore?: () => void } },
): Promise<EvaluatedRun> {
  const { started, startDate } = timing;
  const tasks = uniqueLeaves(nodes);
  const listener = options.listener;
  const plans: TaskPlan[] = [];
  // Tasks planned a chunk at a time: their planners, by position among the tasks (planned later).
  const chunked = new Map<number, TaskPlanner>();
  for (const [position, task] of tasks.entries()) {
    // Tightened while the docs of a task that may be chunked are read: the heap's next limit is set by the
    // collection that reading ends with, so tightened only after it, the check's garbage below could still
    // grow the heap to the default factor's limit (a 200,000-doc run peaked at 390–520 MB from one run to
    // the next). Put back after a task that is not chunked.
    const reading = chunking && !timing.heapGrowth.restore ? tightenHeapGrowth() : undefined;
    // Put back by the run's end when planning fails.
    if (reading) timing.heapGrowth.restore = reading;
    const planner = await createTaskPlanner(task, {
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
    });
    if (chunking && chunkable(planner, chunking.size, options)) {
      // The tightened growth is kept to the run's end (timing.heapGrowth.restore, set above for this task or
      // an earlier chunked one); not from the run's start: tightened while a small task plans, it costs CPU
      // (more full collections) and saves nothing.
      // Its chunks are planned once the run's requests are under way: its docs are checked now.
      await planner.checkDocs(planner.docIds);
      chunked.set(position, planner);
    } else {
      if (reading) {
        reading();
        timing.heapGrowth.restore = undefined;
      }
      plans.push({ ...planner.header, docs: await planner.planDocs(planner.docIds) });
    }
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
    const run = await evaluatePlans(backend, nodes, options, {
      plans,
      perplexity,
      judges,
      started,
      startDate,
      groupsLater: chunked.size > 0,
    });
    if (chunking && chunked.size) {
      await addChunkedTasks(run, backend, options, chunked, chunking);
      // Again: a served backend's usage covers the chunked tasks' requests too.
      run.record = runRecord(backend, options);
    }
    run.seconds = (performance.now() - started) / 1000;
    listener?.({ type: 'run-end', seconds: run.seconds });
    return run;
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
    groupsLater: boolean;
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
  // With chunked tasks still to come, the groups are aggregated once they are (addChunkedTasks).
  const groupResults = planned.groupsLater
    ? []
    : (await Promise.all(allGroups(nodes).map((group) => aggregateGroup(group, byName)))).filter(
        (result): result is GroupResult => result !== undefined,
      );

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
  return run;
}

/**
 * Evaluates the chunked tasks (after the others: each chunk's requests go to the backend on their own)
 * and puts each where its task stands among the run's, with its totals merged into the run's.
 */
async function addChunkedTasks(
  run: EvaluatedRun,
  backend: ModelBackend,
  options: RunOptions,
  planners: Map<number, TaskPlanner>,
  chunking: Chunking,
): Promise<void> {
  const count = run.plans.length + planners.size;
  const plans: TaskPlan[] = [];
  const scored: ScoredTask[] = [];
  const taskResults: TaskResult[] = [];
  const errorsByTask: ErrorCauses[] = [];
  const latencies: RequestLatency[] = [run.latency];
  const timesByTask = new Map<string, TaskLatency>();
  let unchunked = 0;
  for (let position = 0; position < count; position++) {
    const planner = planners.get(position);
    if (!planner) {
      const plan = run.plans[unchunked];
      plans.push(plan);
      scored.push(run.scored[unchunked]);
      taskResults.push(run.taskResults[unchunked]);
      errorsByTask.push(errorCauses([run.scored[unchunked]], run.responses));
      const times = run.taskLatency[plan.task.name];
      if (times) timesByTask.set(plan.task.name, times);
      unchunked++;
      continue;
    }
    const task = await evaluateInChunks(backend, planner, chunking, options);
    plans.push(task.plan);
    scored.push(task.scored);
    errorsByTask.push(task.errors);
    latencies.push(task.latency);
    if (task.taskLatency) timesByTask.set(planner.header.task.name, task.taskLatency);
    const result = await aggregateTask(task.scored, aggregationSpec(task.plan), {
      bootstrapIters: options.bootstrapIters,
      predictOnly: options.predictOnly,
    });
    run.erroredSamples += result.erroredSamples;
    taskResults.push(result);
  }
  const byName = new Map(taskResults.map((result) => [result.name, result]));
  run.plans = plans;
  run.scored = scored;
  run.taskResults = taskResults;
  run.groupResults = (
    await Promise.all(allGroups(run.nodes).map((group) => aggregateGroup(group, byName)))
  ).filter((result): result is GroupResult => result !== undefined);
  run.errors = mergeErrorCauses(errorsByTask);
  run.latency = mergeRequestLatency(latencies);
  run.taskLatency = Object.fromEntries(
    plans.flatMap((plan) => {
      const times = timesByTask.get(plan.task.name);
      return times ? [[plan.task.name, times]] : [];
    }),
  );
}
