/**
 * A large task evaluated a chunk of docs at a time, so a run holds one chunk's plan, answers and scored
 * docs at once, not the task's: plan a chunk (in doc order: the few-shot sampler's one RNG per task goes
 * on where the last chunk left it) → execute its requests → score it → hand it to `onChunk` (the sample
 * log's writer) → keep of it only what aggregation, the error counts and the latency summary read.
 *
 * Only tasks whose scoring reads one doc at a time are chunked: multiple-choice and log-likelihood tasks
 * without filters (a batch filter sees every doc), Python or TypeScript scoring (a Python aggregation
 * reads values that live in the worker), judges or few-shot draws out of doc order. The others (and every
 * task no larger than a chunk) are evaluated whole, as before.
 */
import { setFlagsFromString } from 'node:v8';
import type { ModelBackend } from '../models/backend.js';
import { collectPythonRefs } from '../python/python-ref.js';
import { type ErrorCauses, errorCauses } from './errored-samples.js';
import { executeRequests, type RequestLatency } from './execute.js';
import { judgeBlocks } from './judge-blocks.js';
import type { PlannedDoc, TaskPlan, TaskPlanner } from './plan.js';
import { summarizeLatency, type TaskLatency } from './request-timing.js';
import { latencyOf, type TaskResponses, taskResponses } from './responses.js';
import type { RunOptions } from './run-options.js';
import { mergeErrorCauses, mergeRequestLatency } from './run-totals.js';
import type { ScoredDoc, ScoredTask } from './score.js';
import { scoreTask } from './score.js';

/** One chunk of a chunked task, scored: what the sample log writes its lines from. */
export interface EvaluatedChunk {
  /** The task's plan with the chunk's docs only; request ids count from 0 within the chunk. */
  plan: TaskPlan;
  /** The chunk's answers, by its request ids. */
  responses: TaskResponses;
  scored: ScoredTask;
}

/** A chunked task once every chunk is done: what the run keeps of it. */
export interface ChunkedTask {
  /** The task's plan holding its first doc only (`chunked.docs` counts them all). */
  plan: TaskPlan;
  /** Per filter, one compact record per doc (no filtered answers): what aggregation reads. */
  scored: ScoredTask;
  errors: ErrorCauses;
  latency: RequestLatency;
  /** Its requests' wall times, summarized (none when no request was timed). */
  taskLatency?: TaskLatency;
}

/** Whether a task's planner can be run a chunk at a time (see the file's comment) and has more than one chunk. */
export function chunkable(planner: TaskPlanner, size: number, options: Pick<RunOptions, 'mcMode'>): boolean {
  const { header, docIds } = planner;
  const { task } = header;
  const { config } = task;
  if (docIds.length <= size) return false;
  if (config.output_type !== 'multiple_choice' && config.output_type !== 'loglikelihood') return false;
  if (header.mcMode || options.mcMode === 'generate') return false;
  if (config.filter_list?.length || task.custom || collectPythonRefs(config).length) return false;
  const plainMetrics = header.metricList.every(
    (entry) =>
      typeof entry.metric === 'string' &&
      (entry.aggregation === undefined || typeof entry.aggregation === 'string'),
  );
  if (!plainMetrics || judgeBlocks([task]).length) return false;
  // In doc order only: the few-shot sampler draws for every doc up to the last planned, once.
  for (let i = 1; i < docIds.length; i++) if (docIds[i] <= docIds[i - 1]) return false;
  return true;
}

// Shared by every kept doc: written to the sample log already, read by nothing after.
const NO_ANSWERS = Object.freeze([]) as unknown as unknown[];

/**
 * Metric records of plain values (numbers, booleans, strings, null), one frozen object per distinct
 * record: a multiple-choice task's docs score one of a few records ({acc: 0} or {acc: 1}, …), so N docs
 * share a handful. Nothing reads a doc's metrics to change them after scoring.
 */
function metricsInterner(): (metrics: Record<string, unknown>) => Record<string, unknown> {
  const shared = new Map<string, Record<string, unknown>>();
  return (metrics) => {
    let key = '';
    for (const [name, value] of Object.entries(metrics)) {
      const type = typeof value;
      if (value !== null && type !== 'number' && type !== 'boolean' && type !== 'string') return metrics;
      // The key keeps types apart (1, "1", true) and -0 from 0.
      key += `${JSON.stringify(name)}:${type}:${Object.is(value, -0) ? '-0' : String(value)};`;
    }
    let kept = shared.get(key);
    if (!kept) {
      kept = Object.freeze({ ...metrics });
      shared.set(key, kept);
    }
    return kept;
  };
}

/** A scored doc without its filtered answers (written to the sample log already): what aggregation reads. */
function compactDoc(
  doc: ScoredDoc,
  intern: (metrics: Record<string, unknown>) => Record<string, unknown>,
): ScoredDoc {
  const kept: ScoredDoc = {
    docId: doc.docId,
    filter: doc.filter,
    filtered: NO_ANSWERS,
    metrics: intern(doc.metrics),
  };
  if (doc.error !== undefined) kept.error = doc.error;
  if (doc.timedOut) kept.timedOut = true;
  if (doc.repeatScores) kept.repeatScores = doc.repeatScores;
  if (doc.clusterKey !== undefined) kept.clusterKey = doc.clusterKey;
  return kept;
}

/**
 * How far V8 lets the old generation grow past what the last full collection left, in a run that may
 * chunk a task: 50% (V8's `--heap-growing-percent`). By default V8 picks the factor itself, up to 4× when
 * the program allocates fast, and a large task allocates fast: reading its docs, then each chunk's plan,
 * answers and sample lines, garbage seconds later. The peak then followed that factor times the live set,
 * not the live set (575 MB peak RSS for 160 MB live at 200,000 docs); at 50% it is about 390 MB, for the
 * same CPU time. Set while a run that may chunk reads a task's docs (the collection that ends the read
 * sets the heap's next limit) and kept once the task is found to be chunked, until the run is done; put
 * back after, so a run without a chunked task (and a host process) keeps V8's own (run-evaluation.ts).
 */
const CHUNKED_HEAP_GROWING_PERCENT = 50;

/** Sets the run's heap growth for chunking; the function returned puts V8's own back. */
export function tightenHeapGrowth(): () => void {
  setFlagsFromString(`--heap-growing-percent=${CHUNKED_HEAP_GROWING_PERCENT}`);
  // 0: V8 chooses again.
  return () => setFlagsFromString('--heap-growing-percent=0');
}

export async function evaluateInChunks(
  backend: ModelBackend,
  planner: TaskPlanner,
  chunking: { size: number; onChunk: (chunk: EvaluatedChunk) => void | Promise<void> },
  options: Pick<RunOptions, 'listener' | 'maxLatencyS' | 'predictOnly'>,
): Promise<ChunkedTask> {
  const { header, docIds } = planner;
  const name = header.task.name;
  const filters: string[] = [];
  const byFilter = new Map<string, ScoredDoc[]>();
  const errors: ErrorCauses[] = [];
  const latencies: RequestLatency[] = [];
  // Each chunk's request times, exactly sized (a growing array of all of them would keep up to half again).
  const times: Float64Array[] = [];
  const intern = metricsInterner();
  let first: PlannedDoc | undefined;
  for (let start = 0; start < docIds.length; start += chunking.size) {
    const docs = await planner.planDocs(docIds.slice(start, start + chunking.size));
    first ??= docs[0];
    const plan: TaskPlan = { ...header, docs };
    const instances = docs.flatMap((doc) => doc.instances);
    const executed = await executeRequests(backend, instances, options.listener, {
      maxLatencyS: options.maxLatencyS,
    });
    const scored = await scoreTask(plan, executed.responses, options.predictOnly);
    const responses = taskResponses(executed.responses, name);
    await chunking.onChunk({ plan, responses, scored });
    errors.push(errorCauses([scored], executed.responses));
    latencies.push(executed.latency);
    const chunkTimes: number[] = [];
    for (let id = 0; id < instances.length; id++)
      for (const time of latencyOf(responses, id)) chunkTimes.push(time);
    times.push(Float64Array.from(chunkTimes));
    for (const filter of scored.filters) {
      let kept = byFilter.get(filter);
      if (!kept) {
        kept = [];
        filters.push(filter);
        byFilter.set(filter, kept);
      }
      for (const doc of scored.byFilter.get(filter) ?? []) kept.push(compactDoc(doc, intern));
    }
  }
  const plan: TaskPlan = { ...header, docs: first ? [first] : [], chunked: { docs: docIds.length } };
  const allTimes = new Float64Array(times.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of times) {
    allTimes.set(part, offset);
    offset += part.length;
  }
  return {
    plan,
    scored: { plan, filters, byFilter },
    errors: mergeErrorCauses(errors),
    latency: mergeRequestLatency(latencies),
    ...(allTimes.length ? { taskLatency: summarizeLatency(allTimes) } : {}),
  };
}
