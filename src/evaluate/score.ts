import { AssayError } from '../errors.js';
import { buildFilterPipeline, defaultFilterPipeline } from '../metrics/filters/registry.js';
import type { FilterPipeline } from '../metrics/filters/types.js';
import { getMetric } from '../metrics/registry.js';
import type { GenerationMetricInput } from '../metrics/types.js';
import type { LoglikelihoodResult } from '../models/backend.js';
import { pyTuple } from '../python/codec.js';
import { isPythonRef } from '../python/python-ref.js';
import {
  boundRuntime,
  type PythonRuntime,
  type PythonScores,
  type PythonValueRef,
} from '../python/python-runtime.js';
import { pythonResponse } from '../python/responses.js';
import { pythonStr } from '../python/semantics/literal.js';
import type { MetricConfig } from '../task-config/metric-config.js';
import { judgeRequest } from './judge-request.js';
import { isLatencyTimeout } from './latency-cap.js';
import { generativeChoiceResults } from './mc-generate.js';
import type { DocPerplexity } from './perplexity/types.js';
import { metricName, type PlannedDoc, type TaskPlan } from './plan.js';
import type { Response } from './requests.js';
import { firstRequestError, type Responses, respsOf, taskResponses } from './responses.js';

/** One doc's outcome under one filter pipeline: what the sample log writes and aggregation reads. */
export interface ScoredDoc {
  docId: number;
  filter: string;
  filtered: unknown[];
  metrics: Record<string, unknown>;
  /** Set when scoring this doc failed; the doc then counts in no metric. */
  error?: string;
  /** Set when a request of this doc went over the latency cap: in no metric, and not an error. */
  timedOut?: true;
  /** loglikelihood_rolling tasks: what the results' perplexity block sums over (sample-line `ppl_doc`). */
  ppl?: DocPerplexity;
  /** Metrics computed in Python: metric name → where the worker keeps the value (for a Python aggregation). */
  python?: Record<string, PythonValueRef>;
  /**
   * Tasks with `repeats` > 1, docs that scored: per metric, the score of each repeat on its own (the
   * filter pipeline sees that one response), for the within-question variance. A metric some repeat of
   * which is not a finite number is absent; empty when repeats cannot be scored alone (repeatScoring).
   * Sample-line `repeat_scores`.
   */
  repeatScores?: Record<string, number[]>;
  /** Tasks with `cluster_by`: the doc's value of that field, the cluster it counts in. Sample-line `cluster_key`. */
  clusterKey?: string | number;
}

export interface ScoredTask {
  plan: TaskPlan;
  filters: string[];
  /** filter name → per-doc results, in plan order. */
  byFilter: Map<string, ScoredDoc[]>;
}

const LOGLIKELIHOOD_METRICS = new Set(['acc', 'perplexity']);
// token_perplexity is filled in after scoring by the perplexity stage, which knows the token counts.
const ROLLING_METRICS = new Set(['word_perplexity', 'byte_perplexity', 'bits_per_byte', 'token_perplexity']);

/**
 * Scores a task's docs from the answers to its requests (`responses`, execute's output, looked up by the
 * plan's request ids). Neither the plan nor the responses are written to.
 */
export async function scoreTask(
  plan: TaskPlan,
  responses: Responses,
  predictOnly: boolean,
): Promise<ScoredTask> {
  const pipelines = plan.task.config.filter_list?.length
    ? plan.task.config.filter_list.map((config) => buildFilterPipeline(config))
    : [defaultFilterPipeline()];
  const ofTask = taskResponses(responses, plan.task.name);
  /** Per doc (plan order), its requests' responses in request order, each one per repeat. */
  const answers = plan.docs.map((planned) => respsOf(ofTask, planned.instances));
  // A request that failed for good makes its doc an errored sample carrying the server's message; one
  // over the latency cap (and none failed) makes it timed out. Either way it is not scored.
  const failures = answers.map(firstRequestError);
  const timeouts = answers.map(
    (own, position) => failures[position] === undefined && own.some((resps) => resps.some(isLatencyTimeout)),
  );
  const skipped = plan.docs.map((_, position) => failures[position] !== undefined || timeouts[position]);
  const clusterBy = plan.task.config.cluster_by;
  const byFilter = new Map<string, ScoredDoc[]>();
  for (const pipeline of pipelines) {
    const filteredDocs = await filterDocs(plan, answers, pipeline, skipped);
    const python = predictOnly ? undefined : await pythonScores(plan, filteredDocs);
    const perRepeat = predictOnly ? undefined : repeatScoring(plan, pipeline);
    const scored: ScoredDoc[] = [];
    for (let position = 0; position < plan.docs.length; position++) {
      const planned = plan.docs[position];
      const failed = failures[position];
      // Literals, not a spread of a shared base: V8's spread-then-add is many times slower per object.
      const { docId } = planned;
      const filter = pipeline.name;
      if (failed) {
        scored.push({ docId, filter, filtered: [], metrics: {}, error: failed.message });
        continue;
      }
      if (timeouts[position]) {
        scored.push({ docId, filter, filtered: [], metrics: {}, timedOut: true });
        continue;
      }
      const filtered = filteredDocs[position] as unknown[];
      if (predictOnly) {
        scored.push({ docId, filter, filtered, metrics: { bypass: null } });
        continue;
      }
      const fromPython = python?.[position];
      if (fromPython?.error) {
        scored.push({ docId, filter, filtered, metrics: {}, error: fromPython.error.message });
        continue;
      }
      try {
        const metrics = fromPython?.whole
          ? fromPython.metrics
          : processResults(plan, planned, filtered, fromPython?.byEntry);
        scored.push(
          fromPython
            ? { docId, filter, filtered, metrics, python: fromPython.refs }
            : { docId, filter, filtered, metrics },
        );
      } catch (error) {
        if (error instanceof AssayError && error.code !== 'backend_error') throw error;
        scored.push({ docId, filter, filtered, metrics: {}, error: (error as Error).message });
        continue;
      }
      if (perRepeat)
        (scored[scored.length - 1] as ScoredDoc).repeatScores = perRepeat(planned, answers[position]);
    }
    if (clusterBy !== undefined) {
      for (const [position, doc] of scored.entries()) {
        const key = clusterKey(plan.docs[position].doc, clusterBy);
        if (key !== undefined) doc.clusterKey = key;
      }
    }
    byFilter.set(pipeline.name, scored);
  }
  return { plan, filters: pipelines.map((pipeline) => pipeline.name), byFilter };
}

/**
 * The cluster a doc counts in under `cluster_by: field`: the field's value (a number or string as is,
 * anything else as its JSON). Undefined when the doc has no such field: aggregation names that doc when a
 * clustered stderr needs it.
 */
export function clusterKey(doc: unknown, field: string): string | number | undefined {
  const value = (doc as Record<string, unknown> | null)?.[field];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'number' ? value : typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * How a doc's K repeats are scored one at a time under one filter pipeline, or undefined for a task
 * without repeats. Each repeat's response goes through the pipeline alone and then through
 * processResults; a metric whose value for some repeat is not a finite number (a tuple for f1, a code
 * request, NaN, a Python metric function's, which scoreTask computes in batches) has no per-repeat
 * scores. A Python process_results and pipelines with batch steps (Python filters) are not re-run per
 * repeat: such a doc's per-repeat scores are empty, and its metrics have no within-question variance. An exception while scoring a repeat is a scoring error naming the doc, filter and repeat.
 */
function repeatScoring(
  plan: TaskPlan,
  pipeline: FilterPipeline,
): ((planned: PlannedDoc, answers: Response[][]) => Record<string, number[]>) | undefined {
  const k = plan.task.config.repeats ?? 1;
  if (k < 2) return undefined;
  const { config } = plan.task;
  // processResults leaves Python metric functions out (they have no per-repeat values) and cannot run a
  // Python process_results, which is the whole of the doc's scoring.
  const scoredInPython =
    plan.mcMode !== 'generate' && !plan.task.custom && isPythonRef(config.process_results);
  if (scoredInPython || pipeline.batched) return () => ({});
  return (planned, answers) => {
    const byRepeat: Array<Record<string, unknown>> = [];
    for (let repeat = 0; repeat < k; repeat++) {
      try {
        const filtered = answers.map((resps) => pipeline.apply([resps[repeat]], planned.doc));
        byRepeat.push(processResults(plan, planned, filtered));
      } catch (error) {
        throw new AssayError(
          'scoring_error',
          `scoring repeat ${repeat} of ${k} alone (filter ${pipeline.name}) failed: ${(error as Error).message}`,
          {
            location: { task: plan.task.name, docId: planned.docId, field: 'repeats' },
            cause: error,
            exitCode: 1,
          },
        );
      }
    }
    const perMetric: Record<string, number[]> = {};
    for (const name of Object.keys(byRepeat[0])) {
      const scores = byRepeat.map((metrics) => {
        const value = metrics[name];
        return typeof value === 'boolean' ? Number(value) : value;
      });
      if (scores.every((score) => typeof score === 'number' && Number.isFinite(score)))
        perMetric[name] = scores as number[];
    }
    return perMetric;
  };
}

/** Each doc's filtered responses (one per instance); undefined for docs whose requests failed or timed out. */
async function filterDocs(
  plan: TaskPlan,
  answers: ReadonlyArray<Response[][]>,
  pipeline: FilterPipeline,
  failures: ReadonlyArray<boolean>,
): Promise<Array<unknown[] | undefined>> {
  if (!pipeline.batched) {
    return plan.docs.map((planned, position) =>
      failures[position] ? undefined : answers[position].map((resps) => pipeline.apply(resps, planned.doc)),
    );
  }
  // lm-eval applies each filter to every instance of the task at once.
  const values: unknown[] = [];
  const docs = [];
  for (const [position, planned] of plan.docs.entries()) {
    if (failures[position]) continue;
    for (const resps of answers[position]) {
      values.push(resps);
      docs.push(planned.doc);
    }
  }
  const filtered = await pipeline.applyAll(values, docs, plan.task.name);
  let next = 0;
  return plan.docs.map((planned, position) => {
    if (failures[position]) return undefined;
    const own = filtered.slice(next, next + planned.instances.length);
    next += planned.instances.length;
    return own;
  });
}

interface DocPythonScores {
  /** process_results in Python: these are all the doc's metrics. */
  whole: boolean;
  metrics: Record<string, unknown>;
  /** Python metric functions of metric_list: each entry's dict, by the entry's metric name. */
  byEntry: Record<string, Record<string, unknown>>;
  refs: Record<string, PythonValueRef>;
  error?: AssayError;
}

/** Python process_results, or Python metric functions of a generate_until task, over every doc in batches. */
async function pythonScores(
  plan: TaskPlan,
  filteredDocs: ReadonlyArray<unknown[] | undefined>,
): Promise<Array<DocPythonScores | undefined> | undefined> {
  const { task } = plan;
  const config = task.config;
  if (plan.mcMode === 'generate' || task.custom) return undefined;
  const processResultsRef = config.process_results;
  // Python metric functions count only for generate_until tasks without a process_results.
  const entries =
    isPythonRef(processResultsRef) || config.process_results || config.output_type !== 'generate_until'
      ? []
      : plan.metricList.filter((entry) => isPythonRef(entry.metric));
  // Nothing in Python (the usual case): no per-doc work at all.
  if (!isPythonRef(processResultsRef) && entries.length === 0) return undefined;
  const ok = plan.docs
    .map((planned, position) => ({ planned, position, filtered: filteredDocs[position] }))
    .filter(
      (item): item is { planned: PlannedDoc; position: number; filtered: unknown[] } => !!item.filtered,
    );
  const out: Array<DocPythonScores | undefined> = new Array(plan.docs.length);
  const record = (position: number): DocPythonScores => {
    out[position] ??= { whole: false, metrics: {}, byEntry: {}, refs: {} };
    return out[position] as DocPythonScores;
  };
  const absorb = (scores: PythonScores, whole: boolean, entryName?: string) => {
    for (const [index, { position }] of ok.entries()) {
      const target = record(position);
      const error = scores.errors[index];
      if (error) {
        target.error ??= error;
        continue;
      }
      const values = scores.values[index] ?? {};
      if (whole) {
        target.whole = true;
        target.metrics = values;
      } else if (entryName !== undefined) target.byEntry[entryName] = values;
      for (const key of Object.keys(values)) target.refs[key] = scores.refs[index];
    }
  };
  const location = (planned: PlannedDoc) => ({ task: task.name, docId: planned.docId });
  if (isPythonRef(processResultsRef)) {
    const rolling = config.output_type === 'loglikelihood_rolling';
    // Log-likelihood answers (the common case) go as plain pairs; the worker makes lm-eval's tuples.
    const loglikelihood = ok.every(({ filtered }) => filtered.every(isLoglikelihoodResult));
    const items = ok.map(({ planned, filtered }) => ({
      doc: planned.doc,
      results: loglikelihood
        ? (filtered as LoglikelihoodResult[]).map((value) => [value.logprob, value.isGreedy])
        : filtered.map((value) => pythonResponse(value, rolling)),
      location: location(planned),
    }));
    // The metrics aggregated: a doc that leaves out one the others give is an errored sample.
    const metrics = plan.metricList.map(metricName);
    absorb(
      await boundRuntime(processResultsRef).processResults(processResultsRef, items, {
        loglikelihood,
        metrics,
      }),
      true,
    );
    return out;
  }
  const items = ok.map(({ planned, filtered }) => ({
    ...goldForPython(planned),
    result: filtered[0],
    location: location(planned),
  }));
  const computed = await Promise.all(
    entries.map((entry) => {
      const ref = entry.metric as Parameters<PythonRuntime['metric']>[0];
      return boundRuntime(ref).metric(ref, metricName(entry), kwargsOf(entry), items);
    }),
  );
  for (const [index, scores] of computed.entries()) absorb(scores, false, metricName(entries[index]));
  return out;
}

function isLoglikelihoodResult(value: unknown): value is LoglikelihoodResult {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as LoglikelihoodResult).logprob === 'number' &&
    typeof (value as LoglikelihoodResult).isGreedy === 'boolean'
  );
}

/** lm-eval's generate_until gold: the choice a target index names, the target list, or str(target). */
function goldForPython(planned: PlannedDoc): { gold: unknown; multipleTarget: boolean } {
  const target = planned.target;
  if (planned.choices && typeof target === 'number')
    return { gold: planned.choices[target], multipleTarget: false };
  if (Array.isArray(target)) return { gold: target, multipleTarget: true };
  return { gold: typeof target === 'string' ? target : pythonStr(target), multipleTarget: false };
}

/** wanted's answer per metric list: a task scores every doc against the same list. */
const wantedByList = new WeakMap<MetricConfig[], ReadonlySet<string>>();

/** The metrics assay computes itself; lm-eval skips a Python metric function outside generate_until. */
function wanted(metricList: MetricConfig[]): ReadonlySet<string> {
  let names = wantedByList.get(metricList);
  if (!names) {
    names = new Set(metricList.filter((entry) => !isPythonRef(entry.metric)).map(metricName));
    wantedByList.set(metricList, names);
  }
  return names;
}

/**
 * lm-eval's ConfigurableTask.process_results, per output type. `python` holds the values of the task's
 * Python metric functions for this doc, computed beforehand in one batch (scoreTask).
 */
export function processResults(
  plan: TaskPlan,
  planned: PlannedDoc,
  results: unknown[],
  python?: Record<string, Record<string, unknown>>,
): Record<string, unknown> {
  const { task } = plan;
  if (plan.mcMode === 'generate') return generativeChoiceResults(plan.task.name, planned, results);
  if (task.custom) {
    const out = task.custom.processResults(planned.doc, results);
    // A TypeScript task's judged metrics: the judge stage scores the first response against the target.
    for (const name of Object.keys(task.custom.judges ?? {})) {
      out[name] = judgeRequest(name, String(results[0]), referencesOf(planned.target));
    }
    return out;
  }
  if (task.config.process_results) {
    if (isPythonRef(task.config.process_results)) {
      throw new AssayError('python_error', `internal: Python process_results is computed by scoreTask`, {
        location: { task: task.name, field: 'process_results' },
      });
    }
    return task.config.process_results.fn(planned.doc, results);
  }
  const names = wanted(plan.metricList);
  const location = { task: task.name, docId: planned.docId };
  switch (task.config.output_type) {
    case 'loglikelihood': {
      const [result] = results as LoglikelihoodResult[];
      const out: Record<string, unknown> = {};
      if (names.has('perplexity')) out.perplexity = result.logprob;
      if (names.has('acc')) out.acc = result.isGreedy ? 1 : 0;
      return pick(out, names, LOGLIKELIHOOD_METRICS, plan, planned, results);
    }
    case 'loglikelihood_rolling': {
      const [logprob] = results as number[];
      const text = String(planned.target);
      const words = text.split(/\s+/).length;
      const bytes = Buffer.byteLength(text, 'utf8');
      const out: Record<string, unknown> = {
        // Marked as the tuples lm-eval makes, should a Python aggregation receive them.
        word_perplexity: pyTuple([logprob, words]),
        byte_perplexity: pyTuple([logprob, bytes]),
        bits_per_byte: pyTuple([logprob, bytes]),
      };
      return pick(out, names, ROLLING_METRICS, plan, planned, results);
    }
    case 'multiple_choice':
      return multipleChoiceResults(plan, planned, results as LoglikelihoodResult[], names, location);
    case 'generate_until':
      return generateResults(plan, planned, results[0], location, python);
  }
}

function pick(
  out: Record<string, unknown>,
  names: ReadonlySet<string>,
  known: ReadonlySet<string>,
  plan: TaskPlan,
  planned: PlannedDoc,
  results: unknown[],
): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) {
    if (name in out) picked[name] = out[name];
    else if (!known.has(name)) picked[name] = otherMetric(plan, planned, name, results);
  }
  return picked;
}

function otherMetric(plan: TaskPlan, planned: PlannedDoc, name: string, results: unknown[]): unknown {
  const metric = getMetric(name);
  if (!metric.compute) {
    throw new AssayError(
      'invalid_config',
      `metric ${name} does not apply to ${plan.task.config.output_type} tasks`,
      { location: { task: plan.task.name, field: 'metric_list' } },
    );
  }
  const entry = plan.metricList.find((item) => item.metric === name);
  return metric.compute({
    references: [String(planned.target)],
    prediction: String(results[0]),
    kwargs: kwargsOf(entry),
  });
}

function kwargsOf(entry: MetricConfig | undefined): Record<string, unknown> {
  if (!entry) return {};
  const {
    metric: _metric,
    aggregation: _aggregation,
    higher_is_better: _higher,
    hf_evaluate: _hf,
    ...kwargs
  } = entry;
  return kwargs;
}

function goldIndices(
  target: unknown,
  choices: string[],
  location: { task: string; docId: number },
): number[] {
  const toIndex = (value: unknown): number => {
    if (typeof value === 'number') return value;
    if (typeof value === 'string') {
      const index = choices.indexOf(value);
      if (index < 0) {
        throw new AssayError(
          'bad_data',
          `target "${value}" is not one of the choices ${JSON.stringify(choices)}`,
          {
            location,
          },
        );
      }
      return index;
    }
    throw new AssayError(
      'bad_data',
      `target ${JSON.stringify(value)} is neither a choice index nor a choice`,
      {
        location,
      },
    );
  };
  return Array.isArray(target) ? target.map(toIndex) : [toIndex(target)];
}

function argmax(values: number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

function multipleChoiceResults(
  plan: TaskPlan,
  planned: PlannedDoc,
  results: LoglikelihoodResult[],
  names: ReadonlySet<string>,
  location: { task: string; docId: number },
): Record<string, unknown> {
  const choices = planned.choices ?? [];
  // One array for the choices' log-likelihoods; is-greedy is read only by exact_match.
  const lls = new Array<number>(Math.min(choices.length, results.length));
  for (let index = 0; index < lls.length; index++) lls[index] = results[index].logprob;
  const isGreedy = (index: number) => index >= 0 && index < lls.length && results[index]?.isGreedy === true;
  const golds = goldIndices(planned.gold ?? planned.target, choices, location);
  const pred = argmax(lls);
  // acc_norm divides by the choice's length in characters, as lm-eval does (not bytes; see lm-eval #3278).
  // Each computed only when its metric is asked for.
  const predNorm = () => argmax(lls.map((ll, i) => ll / [...choices[i]].length));
  const predBytes = () => argmax(lls.map((ll, i) => ll / Buffer.byteLength(choices[i], 'utf8')));
  const hit = (index: number) => (golds.includes(index) ? 1 : 0);
  const out: Record<string, unknown> = {};
  for (const name of names) {
    switch (name) {
      case 'acc':
        out.acc = hit(pred);
        break;
      case 'acc_norm':
        out.acc_norm = hit(predNorm());
        break;
      case 'acc_bytes':
        out.acc_bytes = hit(predBytes());
        break;
      case 'acc_mutual_info': {
        const unconditional = results.slice(choices.length).map((result) => result.logprob);
        out.acc_mutual_info = hit(argmax(lls.map((ll, i) => ll - unconditional[i])));
        break;
      }
      case 'exact_match':
        out.exact_match = golds.some((gold) => isGreedy(gold)) ? 1 : 0;
        break;
      case 'f1':
      case 'mcc':
      case 'matthews_corrcoef':
        out[name] = pyTuple([golds[0], pred]);
        break;
      case 'brier_score': {
        const max = Math.max(...lls);
        const exp = lls.map((ll) => Math.exp(ll - max));
        const sum = exp.reduce((a, b) => a + b, 0);
        out.brier_score = pyTuple([golds[0], exp.map((value) => value / sum)]);
        break;
      }
      case 'likelihood':
        out.likelihood = lls[golds[0]];
        break;
      default:
        throw new AssayError('invalid_config', `metric ${name} does not apply to multiple_choice tasks`, {
          location: { task: plan.task.name, field: 'metric_list' },
        });
    }
  }
  return out;
}

function generateResults(
  plan: TaskPlan,
  planned: PlannedDoc,
  result: unknown,
  location: { task: string; docId: number },
  python?: Record<string, Record<string, unknown>>,
): Record<string, unknown> {
  const prediction = String(result);
  let references: string[];
  const target = planned.target;
  if (planned.choices && typeof target === 'number') {
    if (target < 0 || target >= planned.choices.length) {
      throw new AssayError(
        'bad_data',
        `target index ${target} is out of range for ${planned.choices.length} choices`,
        {
          location,
        },
      );
    }
    references = [planned.choices[target]];
  } else if (Array.isArray(target)) {
    references = target.map(String);
  } else {
    references = [String(target)];
  }
  const out: Record<string, unknown> = {};
  for (const entry of plan.metricList) {
    const name = metricName(entry);
    if (name === 'llm_judge' && typeof entry.metric === 'string') {
      // Another model scores it: the judge stage replaces the request with the verdict's score.
      out[name] = judgeRequest(name, prediction, references);
      continue;
    }
    if (isPythonRef(entry.metric)) {
      // lm-eval spreads a dict a metric function returns into the doc's metrics.
      Object.assign(out, python?.[name] ?? {});
      continue;
    }
    const compute = generationScorer(entry, name, plan.task.name);
    const kwargs = kwargsOf(entry);
    const whole = compute({ references, prediction, kwargs });
    if (references.length > 1 && typeof whole === 'number') {
      // lm-eval's multiple-target rule: a per-sample score is 1.0 when any gold scores non-zero.
      const any = references.some(
        (reference) => compute({ references: [reference], prediction, kwargs }) !== 0,
      );
      out[name] = any ? 1 : 0;
    } else {
      out[name] = whole;
    }
  }
  return out;
}

function referencesOf(target: unknown): string[] {
  return Array.isArray(target) ? target.map(String) : [String(target)];
}

/**
 * How a metric_list entry scores one generated answer: the registry metric, or a `!function` metric
 * called with the same `{references, prediction, kwargs}` input (the TypeScript counterpart of lm-eval's
 * `metric_fn(references=…, predictions=…, **kwargs)`).
 */
function generationScorer(
  entry: MetricConfig,
  name: string,
  task: string,
): (input: GenerationMetricInput) => unknown {
  if (typeof entry.metric !== 'string')
    return entry.metric.fn as unknown as (input: GenerationMetricInput) => unknown;
  const compute = getMetric(name).compute;
  if (!compute) {
    throw new AssayError('invalid_config', `metric ${name} does not apply to generate_until tasks`, {
      location: { task, field: 'metric_list' },
    });
  }
  return compute;
}
