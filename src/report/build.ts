/**
 * results_<time>.json from the evaluation stage's plain output: the score sections laid out as lm-eval
 * lays them out (tree order, aliases indented by depth), assay's statistics, errors and manifest, and
 * the run's settings from its RunRecord. Reads no backend and no options: `assay merge` calls it with a
 * record rebuilt from the shards' results file.
 */
import type { GroupResult, MetricResult, TaskResult } from '../evaluate/aggregate.js';
import type { ErrorCauses } from '../evaluate/errored-samples.js';
import type { RequestLatency } from '../evaluate/execute.js';
import type { TaskPlan } from '../evaluate/plan.js';
import type { TaskLatency } from '../evaluate/request-timing.js';
import type { RunRecord } from '../evaluate/run-record.js';
import type { GenerateRequest } from '../models/backend.js';
import type {
  ErrorsBlock,
  Manifest,
  MetricStats,
  ResultsEntry,
  ResultsFile,
  TimeoutsBlock,
} from '../results/results-file.js';
import { RESULTS_SCHEMA } from '../results/schema-versions.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { leafTasks, type TaskNode } from '../tasks/task.js';
import { assayGitCommit, assayVersion, gitDescribe, hardware, taskManifest } from './manifest.js';
import { sha256 } from './samples.js';
import { serializeConfig, serializeConfigValue } from './serialize.js';
import { sanitizeModelName } from './write.js';

export interface BuildInput {
  record: RunRecord;
  nodes: TaskNode[];
  plans: TaskPlan[];
  taskResults: TaskResult[];
  groupResults: GroupResult[];
  taskHashes: Record<string, string>;
  latency: RequestLatency;
  /** Per task: its requests' wall times; absent for a merged run (percentiles do not merge). */
  taskLatency?: Record<string, TaskLatency>;
  startDate: number;
  seconds: number;
  /** Causes of errored samples, when known; counts fall back to each task's own. */
  errors?: ErrorCauses;
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
    if (m.bootstrap) entry.bootstrap = m.bootstrap;
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
  const cap = input.record.maxLatencyS;
  if (cap === null) return undefined;
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
  const { record, plans } = input;
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
        // lm-eval's Group.aggregate: the leaf tasks' sample_len summed, each leaf as often as the tree
        // lists it (get_all_tasks), written before the metrics.
        {
          sample_len: leafTasks(node).reduce(
            (sum, task) => sum + (taskByName.get(task.name)?.sampleLen ?? 0),
            0,
          ),
        },
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
    configs[name] = resultsConfig(plan.task.config, record.genKwargs, plan.generation);
  }
  const nSamples: Record<string, { original: number; effective: number }> = {};
  for (const plan of plans)
    nSamples[plan.task.name] = { original: plan.original, effective: plan.chunked?.docs ?? plan.docs.length };

  const { model, chatTemplate, seeds } = record;
  const limited = record.limit !== null || record.samples;
  const info = model.info;
  const manifest: Manifest = {
    schema: 'assay.manifest/v1',
    model: {
      backend: model.source,
      name: model.name,
      revision: info.revision ?? null,
      sha256: info.sha256 ?? null,
      model_args: typeof model.args === 'string' ? { raw: model.args } : model.args,
      info,
    },
    assay: { version: assayVersion(), git_commit: assayGitCommit() },
    tasks: Object.fromEntries(plans.map((plan) => [plan.task.name, taskManifest(plan, seeds.fewshot)])),
    chat_template: {
      applied: chatTemplate.applied,
      name: chatTemplate.name,
      sha256: chatTemplate.text ? sha256(chatTemplate.text) : null,
    },
    system_instruction_sha256: record.systemInstruction ? sha256(record.systemInstruction) : null,
    fewshot_as_multiturn: record.fewshotAsMultiturn,
    seeds: { ...seeds, sampling: record.samplingSeed },
    limit: { used: limited, value: record.limit, samples: record.samples },
    // A managed server's GPUs, as the machine reports them; in-process backends here run on the CPU.
    hardware: {
      ...hardware(info.numericFormat ?? null),
      gpu: typeof info.gpu === 'string' ? info.gpu : null,
    },
    runtime: { node: process.version, platform: process.platform, arch: process.arch },
    ...(record.codeExecution ? { code_execution: record.codeExecution } : {}),
    ...(record.python ? { python: record.python } : {}),
    // One slice of a sharded run: what `assay merge` needs to rebuild the whole (it removes this).
    ...(record.shard ? { shard: record.shard } : {}),
  };
  const config: Record<string, unknown> = {
    model: model.source,
    model_args: model.args,
    batch_size: model.batchSize,
    batch_sizes: [],
    device: null,
    use_cache: record.useCache,
    limit: record.limit,
    bootstrap_iters: record.bootstrapIters,
    gen_kwargs: Object.keys(record.genKwargs).length ? record.genKwargs : null,
    random_seed: seeds.random,
    numpy_seed: seeds.numpy,
    torch_seed: seeds.torch,
    fewshot_seed: seeds.fewshot,
    // Recorded only when used, so default runs keep lm-eval's config keys.
    ...(record.mcMode === 'generate' ? { mc_mode: 'generate' } : {}),
    ...(record.shard ? { shard: `${record.shard.index}/${record.shard.count}` } : {}),
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
    config,
    git_hash: gitDescribe(process.cwd()),
    date: input.startDate,
    task_hashes: input.taskHashes,
    model_source: model.source,
    model_name: model.name,
    model_name_sanitized: sanitizeModelName(model.name),
    system_instruction: record.systemInstruction,
    system_instruction_sha: record.systemInstruction ? sha256(record.systemInstruction) : null,
    fewshot_as_multiturn: record.fewshotAsMultiturn,
    chat_template: chatTemplate.text,
    chat_template_sha: chatTemplate.text ? sha256(chatTemplate.text) : null,
    total_evaluation_time_seconds: String(input.seconds),
    assay_schema: RESULTS_SCHEMA,
    assay_version: assayVersion(),
    // Partial: a --limit / --samples subset, a shard's slice, or docs that errored or timed out and count
    // in no metric.
    partial: limited || record.shard !== null || errors.samples > 0 || (timeouts?.samples ?? 0) > 0,
    request_stats: {
      ...input.latency,
      ...(model.usage ? { usage: model.usage } : {}),
      ...(input.taskLatency ? { by_task: input.taskLatency } : {}),
    },
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
