import type { GroupResult, MetricResult, TaskResult } from '../evaluate/aggregate.js';
import type { ErrorCauses } from '../evaluate/errored-samples.js';
import type { RequestLatency } from '../evaluate/execute.js';
import type { PerplexityReport } from '../evaluate/perplexity/stage.js';
import type { TaskPlan } from '../evaluate/plan.js';
import type { RunOptions } from '../evaluate/run-evaluation.js';
import type { Interval } from '../evaluate/uncertainty.js';
import {
  type GenerateRequest,
  hasChatTemplate,
  hasUsage,
  type ModelBackend,
  type UsageSummary,
} from '../models/backend.js';
import { leafTasks, type TaskNode } from '../tasks/task.js';
import type { TaskConfig } from '../tasks/types.js';
import {
  assayGitCommit,
  assayVersion,
  gitDescribe,
  hardware,
  type Manifest,
  taskManifest,
} from './manifest.js';
import { sha256 } from './samples.js';
import { serializeConfig, serializeConfigValue } from './serialize.js';
import { sanitizeModelName } from './write.js';

export const RESULTS_SCHEMA = 'assay.results/v1';

export type ResultsEntry = Record<string, unknown>;

/** results_<time>.json: lm-eval's keys in lm-eval's order, then assay's additions. */
export interface ResultsFile {
  results: Record<string, ResultsEntry>;
  groups?: Record<string, ResultsEntry>;
  group_subtasks: Record<string, string[]>;
  configs: Record<string, Record<string, unknown>>;
  versions: Record<string, number | string | null>;
  'n-shot': Record<string, number>;
  higher_is_better: Record<string, Record<string, boolean>>;
  'n-samples': Record<string, { original: number; effective: number }>;
  config: Record<string, unknown>;
  git_hash: string | null;
  date: number;
  task_hashes: Record<string, string>;
  model_source: string;
  model_name: string;
  model_name_sanitized: string;
  system_instruction: string | null;
  system_instruction_sha: string | null;
  fewshot_as_multiturn: boolean;
  chat_template: string | null;
  chat_template_sha: string | null;
  total_evaluation_time_seconds: string;
  assay_schema: string;
  assay_version: string;
  partial: boolean;
  /** Per request type: wall seconds and count; `usage` from served backends (requests/s, p50/p95, tokens, cost). */
  request_stats: RequestLatency & { usage?: UsageSummary };
  manifest: Manifest;
  /** task or group → `metric,filter` → how its stderr and interval were computed (docs/statistics.md). */
  stats: Record<string, Record<string, MetricStats>>;
  /** loglikelihood_rolling task → perplexity mode, parameters, tokenizer and the counts behind each metric. */
  perplexity?: Record<string, PerplexityReport>;
  /** Errored samples: docs a failed request or a failed metric left out of every metric. */
  errors: ErrorsBlock;
  /** Present when the run had a latency cap (`--max_latency_s`): the docs whose requests went over it. */
  timeouts?: TimeoutsBlock;
}

/**
 * A capped run's timed-out samples: docs with a request not answered within `max_latency_s` seconds.
 * They are neither wrong nor errors and count in no metric; each task's entry has its `timeouts` count.
 */
export interface TimeoutsBlock {
  max_latency_s: number;
  samples: number;
  by_task: Record<string, number>;
}

/**
 * The run's errored samples. Every task (and group) with any also says so in its own entry:
 * `partial: true`, `errors`, `answered` (the docs its metrics are computed over) and a `note`.
 */
export interface ErrorsBlock {
  samples: number;
  by_task: Record<string, number>;
  /** Absent when the causes are not known (a merged run: sample logs keep the messages only). */
  by_cause?: Record<string, number>;
  first?: { task: string; doc_id: number; message: string } | null;
}

/** The statistics behind one `metric,filter` of results.json, beyond lm-eval's value and stderr. */
export interface MetricStats {
  n: number;
  ci_level: number | null;
  /** wilson (0/1 means), t (other means), percentile-bootstrap, normal (group means: value ± z·stderr). */
  ci_method: Interval['method'] | null;
  clustered?: {
    by: string;
    clusters: number;
    /** null with fewer than 2 clusters, with `note` saying why. */
    stderr: number | null;
    stderr_cr1: number | null;
    naive_stderr: number;
    note?: string;
    estimator: 'miller-2024-eq4';
    cluster_correction_applied: false;
  };
  repeats?: {
    k: number;
    questions: number;
    within_question_variance: number;
    variance_of_question_means: number;
    variance_of_mean: number;
    within_share: number | null;
  };
}

interface BuildInput {
  nodes: TaskNode[];
  plans: TaskPlan[];
  taskResults: TaskResult[];
  groupResults: GroupResult[];
  backend: ModelBackend;
  options: RunOptions;
  taskHashes: Record<string, string>;
  latency: RequestLatency;
  startDate: number;
  seconds: number;
  /** Causes of errored samples, when known; counts fall back to each task's own. */
  errors?: ErrorCauses;
}

/** lm-eval's model_name: the first of these model_args, else the backend name. */
export function modelNameFrom(model: string, modelArgs: Record<string, unknown> | string): string {
  if (typeof modelArgs === 'string') return modelArgs ? `${model}` : model;
  for (const key of ['peft', 'delta', 'pretrained', 'model', 'path', 'engine']) {
    if (typeof modelArgs[key] === 'string' && modelArgs[key]) return modelArgs[key] as string;
  }
  return model;
}

function metricEntries(metrics: MetricResult[]): ResultsEntry {
  const entry: ResultsEntry = {};
  for (const m of metrics) {
    entry[`${m.metric},${m.filter}`] = m.value;
    entry[`${m.metric}_stderr,${m.filter}`] = m.stderr;
  }
  for (const m of metrics) {
    if (m.interval) entry[`${m.metric}_ci,${m.filter}`] = [m.interval.lo, m.interval.hi];
  }
  return entry;
}

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

function metricStats(metrics: MetricResult[]): Record<string, MetricStats> {
  const out: Record<string, MetricStats> = {};
  for (const m of metrics) {
    const entry: MetricStats = {
      n: m.n,
      ci_level: m.interval?.level ?? null,
      ci_method: m.interval?.method ?? null,
    };
    if (m.clustered) {
      entry.clustered = {
        by: m.clustered.by,
        clusters: m.clustered.clusters,
        stderr: m.clustered.stderr,
        stderr_cr1: m.clustered.stderrCr1,
        naive_stderr: m.clustered.naiveStderr,
        ...(m.clustered.note ? { note: m.clustered.note } : {}),
        estimator: 'miller-2024-eq4',
        cluster_correction_applied: false,
      };
    }
    if (m.repeats) {
      entry.repeats = {
        k: m.repeats.k,
        questions: m.repeats.questions,
        within_question_variance: m.repeats.withinQuestionVariance,
        variance_of_question_means: m.repeats.varianceOfQuestionMeans,
        variance_of_mean: m.repeats.varianceOfMean,
        within_share: finiteOrNull(m.repeats.withinShare),
      };
    }
    out[`${m.metric},${m.filter}`] = entry;
  }
  return out;
}

/**
 * A task's or group's own mark: its metrics cover only the docs that were answered (in time, under a
 * latency cap). `timeouts` is undefined when the run had no cap.
 */
function partialMark(errors: number, docs: number, timeouts?: number): ResultsEntry {
  const late = timeouts ?? 0;
  const counted = timeouts === undefined ? {} : { timeouts: late };
  if (errors === 0 && late === 0) return counted;
  const answered = docs - errors - late;
  const left = [
    ...(errors > 0 ? [`${errors} errored samples`] : []),
    ...(late > 0 ? [`${late} timed out`] : []),
  ].join(' and ');
  return {
    partial: true,
    ...(errors > 0 ? { errors } : {}),
    ...counted,
    answered,
    note: `metrics over the ${answered} ${late > 0 ? 'docs answered in time' : 'answered docs'} of ${docs}; ${left} count in no metric`,
  };
}

function timeoutsBlock(input: BuildInput): TimeoutsBlock | undefined {
  const cap = input.options.maxLatencyS;
  if (cap === undefined) return undefined;
  const byTask = Object.fromEntries(
    input.taskResults
      .filter((result) => result.timedOutSamples > 0)
      .map((result) => [result.name, result.timedOutSamples]),
  );
  const samples = Object.values(byTask).reduce((sum, count) => sum + count, 0);
  return { max_latency_s: cap, samples, by_task: byTask };
}

function errorsBlock(input: BuildInput): ErrorsBlock {
  const byTask =
    input.errors?.byTask ??
    Object.fromEntries(
      input.taskResults
        .filter((result) => result.erroredSamples > 0)
        .map((result) => [result.name, result.erroredSamples]),
    );
  const samples = Object.values(byTask).reduce((sum, count) => sum + count, 0);
  const first = input.errors?.first;
  // Without the causes (a merged run rebuilt from sample logs), an empty count is still known.
  const byCause = input.errors?.byCause ?? (samples === 0 ? {} : undefined);
  return {
    samples,
    by_task: byTask,
    ...(byCause ? { by_cause: byCause } : {}),
    ...(first ? { first: { task: first.task, doc_id: first.docId, message: first.message } } : {}),
  };
}

/**
 * A task's entry in `configs`: its config as lm-eval writes it, with generation_kwargs updated by
 * --gen_kwargs as lm-eval's are; for generating tasks also `normalized_generation_kwargs`, what assay
 * sent after normalising (max-token aliases, do_sample and temperature). `assay merge` compares a
 * reloaded task with this entry.
 */
export function resultsConfig(
  config: TaskConfig,
  genKwargs: Record<string, unknown>,
  generation?: Omit<GenerateRequest, 'context'>,
): Record<string, unknown> {
  const entry = serializeConfig(config);
  if (config.output_type === 'generate_until') {
    entry.generation_kwargs = serializeConfigValue({ ...(config.generation_kwargs ?? {}), ...genKwargs });
  }
  if (generation) {
    const { until, maxGenToks, temperature, doSample, extra } = generation;
    entry.normalized_generation_kwargs = serializeConfigValue({
      until,
      max_gen_toks: maxGenToks,
      temperature,
      do_sample: doSample,
      ...extra,
    });
  }
  return entry;
}

export function buildResults(input: BuildInput): ResultsFile {
  const { options, plans, backend } = input;
  const errors = errorsBlock(input);
  const timeouts = timeoutsBlock(input);
  const timeoutsOf = (name: string): number | undefined =>
    timeouts === undefined ? undefined : (timeouts.by_task[name] ?? 0);
  const taskByName = new Map(input.taskResults.map((result) => [result.name, result]));
  const groupByName = new Map(input.groupResults.map((result) => [result.name, result]));
  const planByName = new Map(plans.map((plan) => [plan.task.name, plan]));
  const results: Record<string, ResultsEntry> = {};
  const groups: Record<string, ResultsEntry> = {};
  const groupSubtasks: Record<string, string[]> = {};
  const versions: Record<string, number | string | null> = {};
  const nShot: Record<string, number> = {};
  const higherIsBetter: Record<string, Record<string, boolean>> = {};

  // lm-eval's prepare_print_tasks: tree order, subtasks' aliases indented by depth.
  const visit = (node: TaskNode, depth: number) => {
    const tab = depth > 0 ? `${' '.repeat(depth)}- ` : '';
    if (node.kind === 'task') {
      const result = taskByName.get(node.name);
      const plan = planByName.get(node.name);
      if (!result || !plan || node.name in results) return;
      results[node.name] = {
        alias: tab + result.alias,
        name: node.name,
        sample_len: result.sampleLen,
        ...metricEntries(result.metrics),
        ...partialMark(errors.by_task[node.name] ?? 0, result.sampleLen, timeoutsOf(node.name)),
      };
      versions[node.name] = node.version;
      nShot[node.name] = plan.numFewshot;
      higherIsBetter[node.name] = Object.fromEntries(result.metrics.map((m) => [m.metric, m.higherIsBetter]));
      if (depth === 0) groupSubtasks[node.name] = [];
      return;
    }
    const aggregated = groupByName.get(node.name);
    const entry: ResultsEntry = { alias: tab + (node.alias ?? node.name), name: node.name };
    if (aggregated) {
      const leaves = [...new Set(leafTasks(node).map((task) => task.name))];
      Object.assign(
        entry,
        metricEntries(aggregated.metrics),
        { sample_count: aggregated.sampleCount },
        partialMark(
          leaves.reduce((sum, name) => sum + (errors.by_task[name] ?? 0), 0),
          leaves.reduce((sum, name) => sum + (taskByName.get(name)?.sampleLen ?? 0), 0),
          timeouts === undefined ? undefined : leaves.reduce((sum, name) => sum + (timeoutsOf(name) ?? 0), 0),
        ),
      );
      groups[node.name] = { ...entry, alias: node.alias ?? node.name };
      higherIsBetter[node.name] = Object.fromEntries(
        aggregated.metrics.map((m) => [m.metric, m.higherIsBetter]),
      );
    }
    if (!node.isTag) {
      results[node.name] = entry;
      versions[node.name] = node.config.metadata?.version ?? null;
      const shots = node.children.map((child) =>
        child.kind === 'task' ? planByName.get(child.name)?.numFewshot : undefined,
      );
      const distinct = [...new Set(shots.filter((n): n is number => n !== undefined))];
      if (distinct.length === 1) nShot[node.name] = distinct[0];
      groupSubtasks[node.name] = node.children.map((child) => child.name);
    }
    for (const child of node.children) visit(child, node.isTag ? depth : depth + 1);
  };
  for (const node of input.nodes) visit(node, 0);

  const configs: Record<string, Record<string, unknown>> = {};
  for (const name of [...planByName.keys()].sort()) {
    const plan = planByName.get(name) as TaskPlan;
    configs[name] = resultsConfig(plan.task.config, options.genKwargs, plan.generation);
  }
  const nSamples: Record<string, { original: number; effective: number }> = {};
  for (const plan of plans)
    nSamples[plan.task.name] = { original: plan.original, effective: plan.docs.length };

  const { model, modelArgs, batchSize } = options.modelLabel;
  const modelName = modelNameFrom(model, modelArgs);
  const chatTemplate =
    options.applyChatTemplate !== false && hasChatTemplate(backend)
      ? (backend.chatTemplate(
          typeof options.applyChatTemplate === 'string' ? options.applyChatTemplate : undefined,
        ) ?? null)
      : null;
  const limited = options.limit !== undefined || options.samples !== undefined;
  const info = backend.info();
  const manifest: Manifest = {
    schema: 'assay.manifest/v1',
    model: {
      backend: model,
      name: modelName,
      revision: info.revision ?? null,
      sha256: info.sha256 ?? null,
      model_args: typeof modelArgs === 'string' ? { raw: modelArgs } : modelArgs,
      info,
    },
    assay: { version: assayVersion(), git_commit: assayGitCommit() },
    tasks: Object.fromEntries(
      plans.map((plan) => [plan.task.name, taskManifest(plan, options.seeds.fewshot)]),
    ),
    chat_template: {
      applied: options.applyChatTemplate !== false,
      name: typeof options.applyChatTemplate === 'string' ? options.applyChatTemplate : null,
      sha256: chatTemplate ? sha256(chatTemplate) : null,
    },
    system_instruction_sha256: options.systemInstruction ? sha256(options.systemInstruction) : null,
    fewshot_as_multiturn: options.fewshotAsMultiturn,
    seeds: {
      ...options.seeds,
      sampling: typeof options.genKwargs.seed === 'number' ? options.genKwargs.seed : options.seeds.random,
    },
    limit: { used: limited, value: options.limit ?? null, samples: options.samples !== undefined },
    // A managed server's GPUs, as the machine reports them; in-process backends here run on the CPU.
    hardware: {
      ...hardware(info.numericFormat ?? null),
      gpu: typeof info.gpu === 'string' ? info.gpu : null,
    },
    runtime: { node: process.version, platform: process.platform, arch: process.arch },
    ...(options.codeSandbox ? { code_execution: options.codeSandbox.describe() } : {}),
    ...(options.python ? { python: options.python.describe() } : {}),
  };

  const out: ResultsFile = {
    results,
    ...(Object.keys(groups).length ? { groups } : {}),
    group_subtasks: groupSubtasks,
    configs,
    versions,
    'n-shot': nShot,
    higher_is_better: higherIsBetter,
    'n-samples': nSamples,
    config: {
      model,
      model_args: modelArgs,
      batch_size: batchSize,
      batch_sizes: [],
      device: null,
      use_cache: options.useCache ?? null,
      limit: options.limit ?? null,
      bootstrap_iters: options.bootstrapIters,
      gen_kwargs: Object.keys(options.genKwargs).length ? options.genKwargs : null,
      random_seed: options.seeds.random,
      numpy_seed: options.seeds.numpy,
      torch_seed: options.seeds.torch,
      fewshot_seed: options.seeds.fewshot,
    },
    git_hash: gitDescribe(process.cwd()),
    date: input.startDate,
    task_hashes: input.taskHashes,
    model_source: model,
    model_name: modelName,
    model_name_sanitized: sanitizeModelName(modelName),
    system_instruction: options.systemInstruction ?? null,
    system_instruction_sha: options.systemInstruction ? sha256(options.systemInstruction) : null,
    fewshot_as_multiturn: options.fewshotAsMultiturn,
    chat_template: chatTemplate,
    chat_template_sha: chatTemplate ? sha256(chatTemplate) : null,
    total_evaluation_time_seconds: String(input.seconds),
    assay_schema: RESULTS_SCHEMA,
    assay_version: assayVersion(),
    // Partial: a --limit / --samples subset, or docs that errored or timed out and count in no metric.
    partial: limited || errors.samples > 0 || (timeouts?.samples ?? 0) > 0,
    request_stats: { ...input.latency, ...(hasUsage(backend) ? { usage: backend.usage() } : {}) },
    manifest,
    stats: {
      ...Object.fromEntries(input.taskResults.map((result) => [result.name, metricStats(result.metrics)])),
      ...Object.fromEntries(input.groupResults.map((result) => [result.name, metricStats(result.metrics)])),
    },
    errors,
    ...(timeouts ? { timeouts } : {}),
  };
  return out;
}
