import { AssayError } from '../errors.js';
import { proportionScale } from '../metrics/judge-scale.js';
import { getAggregation, getMetric } from '../metrics/registry.js';
import type { AggregationFunction } from '../metrics/types.js';
import { plainValue } from '../python/codec.js';
import { isPythonRef, type PythonFunctionRef } from '../python/python-ref.js';
import { boundRuntime } from '../python/python-runtime.js';
import { groupStderr } from '../stats/group-stderr.js';
import type { FunctionRef } from '../task-config/function-ref.js';
import type { MetricConfig } from '../task-config/metric-config.js';
import type { GroupNode, LoadedTask, TaskNode } from '../tasks/task.js';
import { leafTasks } from '../tasks/task.js';
import { judgeBlocks } from './judge-blocks.js';
import {
  type ClusteredSummary,
  clusteredSummary,
  type RepeatsSummary,
  repeatsSummary,
} from './metric-stats.js';
import { metricName, type TaskPlan } from './plan.js';
import type { ResolvedRunOptions } from './run-options.js';
import type { ScoredDoc, ScoredTask } from './score.js';
import {
  type CustomBootstrap,
  customBootstrap,
  fromReplicates,
  type Interval,
  intervalFor,
  stderrFor,
} from './uncertainty.js';

export type Stderr = number | 'N/A';

export interface MetricResult {
  metric: string;
  filter: string;
  value: number;
  stderr: Stderr;
  interval?: Interval;
  /** Set for mean metrics of a task with `cluster_by`. */
  clustered?: ClusteredSummary;
  /** Set for mean metrics of a task with `repeats` > 1. */
  repeats?: RepeatsSummary;
  /** Samples that contributed (docs minus those that errored). */
  n: number;
  higherIsBetter: boolean;
  /**
   * A custom aggregation's bootstrap, assay's own (results `stats`): lm-eval bootstraps no function, so
   * for a `!function` aggregation `stderr` stays lm-eval's "N/A" and the bootstrap is only here. `stderr`
   * is null when a resample could not be aggregated, with the reason in `note`.
   */
  bootstrap?: { stderr: number | null; iterations: number; note?: string };
}

export interface TaskResult {
  name: string;
  alias: string;
  sampleLen: number;
  metrics: MetricResult[];
  erroredSamples: number;
  /** Docs a request of which went over the latency cap: in no metric, and not errors. */
  timedOutSamples: number;
}

export interface GroupResult {
  name: string;
  alias: string;
  metrics: MetricResult[];
  /** metric,filter → samples behind the group value. */
  sampleCount: Record<string, number>;
}

/**
 * What aggregation needs of a task besides its scored docs: the task (its config and TypeScript scoring
 * functions), the metrics asked for and how many docs were selected. No plan, no requests, no responses:
 * a run and a merge of sample logs hand over the same values.
 */
export interface AggregationSpec {
  task: LoadedTask;
  metricList: MetricConfig[];
  /** Docs selected for the task (results `sample_len`). */
  sampleLen: number;
}

/** The scored docs of one task: per filter, in selection order (score.ts's ScoredTask without its plan). */
export type ScoredDocs = Pick<ScoredTask, 'filters' | 'byFilter'>;

export function aggregationSpec(
  plan: Pick<TaskPlan, 'task' | 'metricList' | 'docs' | 'chunked'>,
): AggregationSpec {
  return { task: plan.task, metricList: plan.metricList, sampleLen: plan.chunked?.docs ?? plan.docs.length };
}

export type AggregateOptions = Pick<ResolvedRunOptions, 'bootstrapIters' | 'predictOnly'>;

export function resolveAggregation(
  task: LoadedTask,
  entry: MetricConfig,
): { name: string; fn: AggregationFunction } {
  const name = metricName(entry);
  if (entry.aggregation !== undefined) {
    if (typeof entry.aggregation === 'string')
      return { name: entry.aggregation, fn: getAggregation(entry.aggregation) };
    const ref = entry.aggregation;
    // A `!function` aggregation gets the bootstrap stderr every custom aggregation gets.
    return { name: 'custom', fn: ref.fn as unknown as AggregationFunction };
  }
  const custom = task.custom?.aggregation[name];
  if (custom) return { name: custom === getAggregation('mean') ? 'mean' : 'custom', fn: custom };
  if (typeof entry.metric !== 'string') {
    throw new AssayError(
      'invalid_config',
      `metric !function ${entry.metric.ref} needs an aggregation in metric_list`,
      {
        location: { task: task.name, field: 'metric_list' },
      },
    );
  }
  const definition = getMetric(name);
  return { name: definition.defaultAggregation, fn: getAggregation(definition.defaultAggregation) };
}

export function resolveHigherIsBetter(task: LoadedTask, entry: MetricConfig): boolean {
  if (entry.higher_is_better !== undefined) return entry.higher_is_better;
  const name = metricName(entry);
  const custom = task.custom?.higherIsBetter[name];
  if (custom !== undefined) return custom;
  // lm-eval's default for a callable metric without higher_is_better.
  if (typeof entry.metric !== 'string') return true;
  return getMetric(name).higherIsBetter;
}

/** At most this many bootstrap replicates of a Python aggregation (as for any custom aggregation). */
const PYTHON_BOOTSTRAP_ITERS = 1000;

interface ComputedMetric {
  value: number;
  stderr: Stderr;
  interval?: Interval;
  bootstrap?: MetricResult['bootstrap'];
}

/** The bootstrap record of a result: what `stats` keeps (the interval goes to the metric itself). */
function bootstrapRecord(bootstrap: CustomBootstrap): MetricResult['bootstrap'] {
  return {
    stderr: bootstrap.stderr,
    iterations: bootstrap.iterations,
    ...(bootstrap.note ? { note: bootstrap.note } : {}),
  };
}

/**
 * A Python `aggregation: !function` over the doc values, run where the values live: a value computed in
 * Python reaches it as the original object (a tuple, a set), not its JSON form. Its stderr is lm-eval's
 * ("N/A": lm-eval bootstraps no function); assay's bootstrap (lm-eval's own procedure, run in the worker)
 * and the 95% interval from its replicates are kept apart, and a resample that raises leaves them unknown.
 */
async function pythonAggregate(
  ref: PythonFunctionRef,
  docs: ScoredDoc[],
  name: string,
  bootstrapIters: number,
  task: string,
): Promise<ComputedMetric> {
  const items = docs
    .filter((doc) => doc.metrics[name] !== undefined)
    .map((doc) => {
      const ref = doc.python?.[name];
      return ref ? { ...ref, key: name } : { value: doc.metrics[name] };
    });
  const iterations = bootstrapIters > 0 ? Math.min(bootstrapIters, PYTHON_BOOTSTRAP_ITERS) : 0;
  const runtime = boundRuntime(ref);
  const answer = await runtime.aggregate(ref, items, iterations, task);
  const { value } = answer;
  const number = typeof value === 'boolean' ? Number(value) : value;
  if (typeof number !== 'number') {
    throw new AssayError(
      'python_error',
      `aggregation ${ref.ref} of metric ${name} returned ${JSON.stringify(plainValue(value))}, not a number`,
      { location: { task, field: 'metric_list' }, exitCode: 1 },
    );
  }
  let bootstrap: CustomBootstrap;
  if (answer.bootstrap_error) {
    const { resample, error } = answer.bootstrap_error;
    bootstrap = {
      stderr: null,
      iterations,
      note: `bootstrap resample ${resample} raised ${error.type}: ${error.message}${error.frame ? ` (${error.frame})` : ''}`,
    };
  } else if (iterations === 0) {
    bootstrap = { stderr: null, iterations, note: 'bootstrap_iters is 0' };
  } else if (items.length < 2) {
    bootstrap = { stderr: null, iterations: 0, note: 'fewer than 2 values' };
  } else {
    bootstrap = fromReplicates(Float64Array.from(answer.replicates));
  }
  return {
    value: number,
    stderr: 'N/A',
    interval: bootstrap.interval,
    bootstrap: bootstrapRecord(bootstrap),
  };
}

/**
 * The keys a metric_list entry reports under. A metric function of a generate_until task may return a
 * dict (lm-eval's `pass_at_k` returns `{"pass@1": …}`): lm-eval spreads it into the doc's metrics and
 * aggregates each key with the entry's aggregation (ConfigurableTask.process_results). Keys another
 * entry names are that entry's.
 */
function reportedKeys(spec: AggregationSpec, entry: MetricConfig, docs: ScoredDoc[]): string[] {
  const name = metricName(entry);
  const { config } = spec.task;
  if (
    !isPythonRef(entry.metric) ||
    config.process_results !== undefined ||
    config.output_type !== 'generate_until' ||
    docs.some((doc) => doc.metrics[name] !== undefined)
  ) {
    return [name];
  }
  const claimed = new Set(spec.metricList.map(metricName));
  const keys = new Set<string>();
  for (const doc of docs) for (const key of Object.keys(doc.metrics)) if (!claimed.has(key)) keys.add(key);
  return keys.size ? [...keys] : [name];
}

/**
 * A score that is not a finite number (a mean whose sum overflows a float, a NaN) is an error naming the
 * task and metric: JSON has no such number, so it would be written as null, a silent hole in the results.
 */
function checkFinite(
  value: number,
  context: { task: string; metric: string; filter: string; aggregation: string; items?: unknown[] },
): void {
  if (Number.isFinite(value)) return;
  const numbers = (context.items ?? []).map(Number).filter((item) => !Number.isNaN(item));
  const largest = numbers.length ? numbers.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a)) : undefined;
  const why =
    largest !== undefined && Number.isFinite(largest) && Math.abs(largest) > 1e300
      ? ` (its ${context.items?.length} values overflow a float: one is ${largest})`
      : context.items
        ? ` over ${context.items.length} values`
        : '';
  throw new AssayError(
    'scoring_error',
    `task ${context.task}: metric ${context.metric} (filter ${context.filter}) aggregates to ${value} with ${context.aggregation}${why}; a score must be a finite number`,
    { location: { task: context.task, field: 'metric_list' }, exitCode: 1 },
  );
}

/** One metric of one filter: its value, lm-eval's stderr, assay's interval and statistics. */
async function aggregateMetric(
  task: LoadedTask,
  entry: MetricConfig,
  name: string,
  filter: string,
  ok: ScoredDoc[],
  options: AggregateOptions,
): Promise<MetricResult | undefined> {
  const items = ok.map((doc) => plainValue(doc.metrics[name])).filter((item) => item !== undefined);
  if (items.length === 0) return undefined;
  const higherIsBetter = resolveHigherIsBetter(task, entry);
  if (isPythonRef(entry.aggregation)) {
    const computed = await pythonAggregate(entry.aggregation, ok, name, options.bootstrapIters, task.name);
    checkFinite(computed.value, {
      task: task.name,
      metric: name,
      filter,
      aggregation: entry.aggregation.ref,
    });
    return { metric: name, filter, ...computed, n: items.length, higherIsBetter };
  }
  const aggregation = resolveAggregation(task, entry);
  let value: number;
  try {
    value = aggregation.fn(items);
  } catch (error) {
    throw new AssayError(
      'invalid_config',
      `aggregation ${aggregation.name} of metric ${name} failed: ${(error as Error).message}`,
      {
        location: { task: task.name, field: 'metric_list' },
        cause: error,
        exitCode: 1,
      },
    );
  }
  checkFinite(value, { task: task.name, metric: name, filter, aggregation: aggregation.name, items });
  if (aggregation.name === 'custom') {
    // lm-eval writes "N/A" for a `!function` aggregation; a TypeScript task's aggregation (no lm-eval
    // counterpart) keeps assay's bootstrap as its stderr. Either way the bootstrap is also in `stats`.
    const bootstrap = customBootstrap(aggregation.fn, items, options.bootstrapIters);
    const lmEvalFunction = entry.aggregation !== undefined && typeof entry.aggregation !== 'string';
    return {
      metric: name,
      filter,
      value,
      stderr: lmEvalFunction ? 'N/A' : (bootstrap.stderr ?? 'N/A'),
      interval: bootstrap.interval,
      bootstrap: bootstrapRecord(bootstrap),
      n: items.length,
      higherIsBetter,
    };
  }
  const stderr = stderrFor(aggregation.name, aggregation.fn, items, options.bootstrapIters);
  const result: MetricResult = {
    metric: name,
    filter,
    value,
    stderr,
    interval: intervalFor(
      aggregation.name,
      aggregation.fn,
      value,
      stderr,
      items,
      // A judge's scores (a YAML llm_judge entry, or a TypeScript task's judge under its own name) are on
      // the rubric's scale.
      proportionScale(judgeBlocks([task]).find((block) => block.metric === name)?.raw),
    ),
    n: items.length,
    higherIsBetter,
  };
  if (aggregation.name === 'mean') {
    const contributing = ok.filter((doc) => doc.metrics[name] !== undefined);
    const clusterBy = task.config.cluster_by;
    if (clusterBy) result.clustered = clusteredSummary(task.name, clusterBy, contributing, items.map(Number));
    result.repeats = repeatsSummary(task.config.repeats ?? 1, name, contributing);
  }
  return result;
}

function finite(value: number, context: Parameters<typeof checkFinite>[1]): number {
  checkFinite(value, context);
  return value;
}

/** One task's metrics from its scored docs: values, lm-eval's stderrs, assay's intervals and statistics. */
export async function aggregateTask(
  scored: ScoredDocs,
  spec: AggregationSpec,
  options: AggregateOptions,
): Promise<TaskResult> {
  const { task } = spec;
  const metrics: MetricResult[] = [];
  let errored = 0;
  let timedOut = 0;
  for (const filter of scored.filters) {
    const docs = scored.byFilter.get(filter) ?? [];
    const answered = docs.filter((doc) => doc.timedOut !== true);
    const ok = answered.filter((doc) => doc.error === undefined);
    timedOut = Math.max(timedOut, docs.length - answered.length);
    errored = Math.max(errored, answered.length - ok.length);
    if (options.predictOnly) {
      metrics.push({
        metric: 'bypass',
        filter,
        value: 999,
        stderr: 'N/A',
        n: ok.length,
        higherIsBetter: true,
      });
      continue;
    }
    for (const entry of spec.metricList) {
      for (const name of reportedKeys(spec, entry, ok)) {
        const result = await aggregateMetric(task, entry, name, filter, ok, options);
        if (result) metrics.push(result);
      }
    }
  }
  return {
    name: task.name,
    alias: task.config.task_alias ?? task.name,
    sampleLen: spec.sampleLen,
    metrics,
    erroredSamples: errored,
    timedOutSamples: timedOut,
  };
}

/**
 * Group scores, always over leaf tasks as lm-eval computes them. With weight_by_size the value is the
 * size-weighted mean and the stderr is lm-eval's pooled formula; without it the value is the plain mean of
 * task scores and the stderr is that of a mean of independent estimates, sqrt(Σ se_i²)/k. lm-eval applies
 * the pooled formula in both cases, which misstates the macro average's uncertainty.
 */
export async function aggregateGroup(
  group: GroupNode,
  taskResults: Map<string, TaskResult>,
): Promise<GroupResult | undefined> {
  const list = group.config.aggregate_metric_list;
  if (group.isTag || !list?.length) return undefined;
  const leaves = leafTasks(group)
    .map((task) => taskResults.get(task.name))
    .filter((result): result is TaskResult => result !== undefined);
  const metrics: MetricResult[] = [];
  const sampleCount: Record<string, number> = {};
  for (const entry of list) {
    const filters = entry.filter_list ?? [
      ...new Set(
        leaves.flatMap((leaf) => leaf.metrics.filter((m) => m.metric === entry.metric).map((m) => m.filter)),
      ),
    ];
    for (const filter of filters) {
      const parts = leaves
        .map((leaf) => leaf.metrics.find((m) => m.metric === entry.metric && m.filter === filter))
        .filter((m): m is MetricResult => m !== undefined);
      if (parts.length === 0) continue;
      const sizes = parts.map((part) => part.n);
      const total = sizes.reduce((a, b) => a + b, 0);
      if (typeof entry.aggregation !== 'string') {
        metrics.push({
          metric: entry.metric,
          filter,
          value: finite(
            await groupFunction(entry.aggregation, parts, sizes, entry.weight_by_size, group.name),
            { task: group.name, metric: entry.metric, filter, aggregation: entry.aggregation.ref },
          ),
          // The pooled formula is for means; a function's stderr is unknown.
          stderr: 'N/A',
          n: total,
          higherIsBetter: parts[0].higherIsBetter,
        });
        sampleCount[`${entry.metric},${filter}`] = total;
        continue;
      }
      const value = entry.weight_by_size
        ? parts.reduce((acc, part) => acc + part.value * part.n, 0) / total
        : parts.reduce((acc, part) => acc + part.value, 0) / parts.length;
      checkFinite(value, {
        task: group.name,
        metric: entry.metric,
        filter,
        aggregation: entry.weight_by_size ? 'the size-weighted mean' : 'the mean of task scores',
        items: parts.map((part) => part.value),
      });
      let stderr: Stderr = 'N/A';
      if (parts.every((part) => typeof part.stderr === 'number')) {
        const ses = parts.map((part) => part.stderr as number);
        stderr = groupStderr(ses, sizes, entry.weight_by_size).stderr;
      }
      metrics.push({
        metric: entry.metric,
        filter,
        value,
        stderr,
        interval:
          typeof stderr === 'number' ? intervalFor('mean-of-tasks', undefined, value, stderr, []) : undefined,
        n: total,
        higherIsBetter: parts[0].higherIsBetter,
      });
      sampleCount[`${entry.metric},${filter}`] = total;
    }
  }
  return { name: group.name, alias: group.alias ?? group.name, metrics, sampleCount };
}

/**
 * A group's `aggregation: !function`, called as `fn(values, sizes, weight_by_size)` with the leaf tasks'
 * scores and sample counts: the signature lm-eval's task tree writes these functions for. (lm-eval at
 * 4e7e0d47 accepts the callable but then computes the mean regardless; assay calls it.)
 */
async function groupFunction(
  ref: FunctionRef,
  parts: MetricResult[],
  sizes: number[],
  weightBySize: boolean,
  group: string,
): Promise<number> {
  const values = parts.map((part) => part.value);
  const result = isPythonRef(ref)
    ? await boundRuntime(ref).groupAggregate(ref, values, sizes, weightBySize, group)
    : await (ref.fn as (values: number[], sizes: number[], weightBySize: boolean) => unknown)(
        values,
        sizes,
        weightBySize,
      );
  const number = typeof result === 'boolean' ? Number(result) : result;
  if (typeof number !== 'number') {
    throw new AssayError(
      'invalid_config',
      `group ${group}: aggregation ${ref.ref} returned ${JSON.stringify(plainValue(result))}, not a number`,
      { location: { field: 'aggregate_metric_list' }, exitCode: 1 },
    );
  }
  return number;
}

export function allGroups(nodes: TaskNode[]): GroupNode[] {
  const out: GroupNode[] = [];
  const visit = (node: TaskNode) => {
    if (node.kind === 'group') {
      for (const child of node.children) visit(child);
      out.push(node);
    }
  };
  for (const node of nodes) visit(node);
  return out;
}
