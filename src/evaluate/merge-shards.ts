/**
 * `assay merge`: the outputs of `assay run --shard i/N` for every i, combined into what one unsharded run
 * would have written. Scores are re-aggregated from the per-sample metric values in the sample logs with
 * the run's own aggregation code (so stderr, bootstrap and intervals see the same items in the same
 * order), and so is the perplexity block of loglikelihood_rolling tasks (from each doc's `ppl_doc`);
 * everything else comes from the shards, which must agree on it.
 */

import { AssayError } from '../errors.js';
import { buildFilterPipeline, defaultFilterPipeline } from '../metrics/filters/registry.js';
import type { ChatTemplating, ModelBackend } from '../models/backend.js';
import { docToChoice, docToTarget, docToText } from '../prompts/doc-to.js';
import { prepareDocFunctions } from '../python/doc-functions.js';
import { startPythonFor } from '../python/python-for-tasks.js';
import { buildResults, type ResultsFile, resultsConfig } from '../results/build.js';
import { prepareOutputDirectory, type WrittenFiles, writeOutputs } from '../results/output.js';
import { type SampleLine, taskHash } from '../results/samples.js';

import { withoutShard } from '../results/shard-record.js';
import { loadShardRun, type ShardRun } from '../results/shard-run.js';
import { checkIncludePath } from '../tasks/include-path.js';
import { resolveTasks } from '../tasks/manager.js';
import { type LoadedTask, leafTasks, type TaskNode } from '../tasks/task.js';
import { aggregateGroup, aggregateTask, allGroups, type GroupResult, type TaskResult } from './aggregate.js';
import type { Logger } from './evaluate.js';
import { sampleSize } from './limit.js';
import { perplexityReport, type ReportIdentity } from './perplexity/report.js';
import type { PerplexityReport } from './perplexity/stage.js';
import { metricListFor, type PlannedDoc, type TaskPlan } from './plan.js';
import type { Instance, Response } from './requests.js';
import type { EvaluationOutput, RunOptions } from './run-evaluation.js';
import type { ScoredDoc, ScoredTask } from './score.js';
import { shardDocIds } from './shard.js';

export interface MergeOptions {
  /** Each shard's results file, its directory, or the --output_path above it. */
  shards: string[];
  outputPath: string;
  /** Override the task specs / include paths the shards recorded (when paths differ on this machine). */
  tasks?: string[];
  includePath?: string[];
  logger?: Logger;
  /** Interpreter for Python aggregations (`--python`), as for `run`. */
  python?: string;
}

export interface MergeResult extends EvaluationOutput {
  files: WrittenFiles;
  shardCount: number;
}

/** Fields of results.json that hold timing or per-machine facts, not scores: merged, never compared. */
const NOT_COMPARED = new Set(['date', 'total_evaluation_time_seconds', 'request_stats', 'git_hash']);
/** Fields recomputed from the merged sample logs. */
const COMPUTED = new Set([
  'results',
  'groups',
  'group_subtasks',
  'versions',
  'n-shot',
  'higher_is_better',
  'n-samples',
  'task_hashes',
  'stats',
  'perplexity',
  'errors',
  'timeouts',
]);

export async function mergeShards(options: MergeOptions): Promise<MergeResult> {
  if (options.shards.length === 0)
    throw new AssayError('bad_argument', 'assay merge: give the shard runs to merge');
  const runs = orderedShards(options.shards.map(loadShardRun));
  for (const run of runs) {
    if (run.ignoredResultsFiles.length) {
      options.logger?.warn(
        `${run.location} holds several results files; merging the newest, ${run.resultsFile} (pass the file itself to choose)`,
      );
    }
  }
  const first = runs[0];
  for (const run of runs.slice(1)) checkSameRun(first, run, options.logger);

  checkIncludePath(options.includePath);
  // Made and probed before the merge work, as a run does.
  await prepareOutputDirectory(options.outputPath, first.results.model_name);
  const record = first.shard;
  const nodes = await resolveTasks(options.tasks ?? record.tasks, {
    includePath: options.includePath ?? record.include_path ?? undefined,
    logger: options.logger,
    python: options.python,
  });
  const tasks = uniqueLeaves(nodes);
  checkTasksUnchanged(tasks, first.results);
  // Python aggregations re-run over the logged values (their JSON form: a tuple comes back as a list).
  const python = await startPythonFor(nodes, { python: options.python });
  try {
    return await mergeLoaded(options, runs, nodes, tasks);
  } finally {
    await python?.close();
  }
}

async function mergeLoaded(
  options: MergeOptions,
  runs: ShardRun[],
  nodes: TaskNode[],
  tasks: LoadedTask[],
): Promise<MergeResult> {
  const first = runs[0];
  const record = first.shard;

  const bootstrapIters = Number(first.results.config.bootstrap_iters);
  const plans: TaskPlan[] = [];
  const taskResults: TaskResult[] = [];
  const samples: Record<string, SampleLine[]> = {};
  const perplexity: Record<string, PerplexityReport> = {};
  let erroredSamples = 0;
  for (const task of tasks) {
    const merged = mergeLogs(task, runs);
    const scored = await rebuildScoredTask(task, merged.lines, runs);
    plans.push(scored.plan);
    const ppl = mergePerplexity(task.name, scored, runs);
    if (ppl) perplexity[task.name] = ppl;
    const result = await aggregateTask(scored, { bootstrapIters, predictOnly: record.predict_only });
    erroredSamples += result.erroredSamples;
    taskResults.push(result);
    samples[task.name] = merged.lines;
  }
  const byName = new Map(taskResults.map((result) => [result.name, result]));
  const groupResults = (
    await Promise.all(allGroups(nodes).map((group) => aggregateGroup(group, byName)))
  ).filter((result): result is GroupResult => result !== undefined);
  const taskHashes: Record<string, string> = {};
  for (const [name, lines] of Object.entries(samples)) taskHashes[name] = taskHash(lines);

  const results = assembleResults(first.results, runs, {
    nodes,
    plans,
    taskResults,
    groupResults,
    taskHashes,
  });
  // Last, as a run adds it after building the rest.
  if (Object.keys(perplexity).length) results.perplexity = perplexity;
  const output: EvaluationOutput = { results, samples, taskResults, groupResults, plans, erroredSamples };
  const files = await writeOutputs(output, {
    outputPath: options.outputPath,
    logSamples: true,
    includePerExample: first.includePerExample,
  });
  return { ...output, files, shardCount: runs.length };
}

/** Sorts by shard index and refuses a set that is not exactly 0..N-1 of one N. */
function orderedShards(runs: ShardRun[]): ShardRun[] {
  const count = runs[0].shard.count;
  for (const run of runs) {
    if (run.shard.count !== count) {
      throw new AssayError(
        'bad_argument',
        `shards of different splits: ${runs[0].resultsFile} is ${runs[0].shard.index}/${count}, ${run.resultsFile} is ${run.shard.index}/${run.shard.count}`,
      );
    }
  }
  const byIndex = new Map<number, ShardRun>();
  for (const run of runs) {
    const other = byIndex.get(run.shard.index);
    if (other) {
      throw new AssayError(
        'bad_argument',
        `shard ${run.shard.index}/${count} given twice: ${other.resultsFile} and ${run.resultsFile}`,
      );
    }
    byIndex.set(run.shard.index, run);
  }
  const missing = Array.from({ length: count }, (_, index) => index).filter((index) => !byIndex.has(index));
  if (missing.length) {
    throw new AssayError(
      'bad_argument',
      `missing shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${count}`).join(', ')}: a merge needs all ${count}`,
    );
  }
  return [...byIndex.keys()].sort((a, b) => a - b).map((index) => byIndex.get(index) as ShardRun);
}

/**
 * Everything but timing, per-machine facts, the shard slice and the scores must be equal: the same
 * tasks, task configs, model and model args, seeds, limit, generation kwargs, assay version and sampler.
 */
function checkSameRun(first: ShardRun, run: ShardRun, logger: Logger | undefined): void {
  const a = comparable(first.results);
  const b = comparable(run.results);
  const difference = firstDifference(a, b, '');
  if (difference) {
    throw new AssayError(
      'bad_argument',
      `shard ${run.shard.index}/${run.shard.count} (${run.resultsFile}) was not run like shard ${first.shard.index}/${first.shard.count} (${first.resultsFile}): ${difference}`,
    );
  }
  if (first.results.git_hash !== run.results.git_hash) {
    logger?.warn(
      `shards ran from different checkouts (git ${first.results.git_hash} and ${run.results.git_hash}); the merged run records the first`,
    );
  }
}

function comparable(results: ResultsFile): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(results)) {
    if (NOT_COMPARED.has(key) || (COMPUTED.has(key) && key !== 'n-samples' && key !== 'versions')) continue;
    out[key] = value;
  }
  // Counts and seconds differ per slice; the mode, its parameters and the tokenizer must not.
  if (results.perplexity) {
    out.perplexity = Object.fromEntries(
      Object.entries(results.perplexity).map(([task, report]) => [task, reportIdentity(report)]),
    );
  }
  const { shard: configShard, ...config } = results.config;
  void configShard;
  out.config = config;
  // Hardware and runtime may differ between machines; the shard index differs by design.
  const { hardware, runtime, shard, ...manifest } = results.manifest;
  void hardware;
  void runtime;
  const { index, ...shardRest } = shard ?? ({} as NonNullable<typeof shard>);
  void index;
  out.manifest = { ...manifest, model: machineFreeModel(manifest.model), shard: shardRest };
  out['n-samples'] = Object.fromEntries(
    Object.entries(results['n-samples']).map(([task, counts]) => [task, counts.original]),
  );
  return out;
}

/**
 * A managed server (`--model vllm`) is started per shard: its port, pid, log file, command line (which
 * holds the port) and GPUs differ by machine. Its kind and version must not; the flags it got come from
 * the model args, compared on their own.
 */
function machineFreeModel(model: ResultsFile['manifest']['model']): unknown {
  const { server, gpu, ...info } = model.info as Record<string, unknown>;
  void gpu;
  if (!server || typeof server !== 'object') return model;
  const { kind, version, started_by_assay: started } = server as Record<string, unknown>;
  return { ...model, info: { ...info, server: { kind, version, started_by_assay: started } } };
}

/** A readable path to the first place two JSON values differ, with both values; undefined when equal. */
export function firstDifference(a: unknown, b: unknown, at: string): string | undefined {
  if (a === b) return undefined;
  const show = (value: unknown) => {
    const text = JSON.stringify(value) ?? 'undefined';
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const inner = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        at ? `${at}.${key}` : key,
      );
      if (inner) return inner;
    }
    return undefined;
  }
  if (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b)) return undefined;
  return `${at || '(root)'} is ${show(a)} in one and ${show(b)} in the other`;
}

function uniqueLeaves(nodes: TaskNode[]): LoadedTask[] {
  const seen = new Set<string>();
  const out: LoadedTask[] = [];
  for (const node of nodes) {
    for (const task of leafTasks(node)) {
      if (seen.has(task.name)) continue;
      seen.add(task.name);
      out.push(task);
    }
  }
  return out;
}

/** The tasks are loaded again (groups are not in results.json): they must be the ones the shards ran. */
function checkTasksUnchanged(tasks: LoadedTask[], results: ResultsFile): void {
  const names = tasks.map((task) => task.name).sort();
  const recorded = Object.keys(results.configs).sort();
  if (JSON.stringify(names) !== JSON.stringify(recorded)) {
    throw new AssayError(
      'bad_argument',
      `the task specs resolve to ${names.join(', ')} here, but the shards ran ${recorded.join(', ')}; pass --tasks / --include_path`,
    );
  }
  for (const task of tasks) {
    // What assay sent is derived from the config and the run's flags; the config itself is compared.
    const { normalized_generation_kwargs: _derived, ...recorded } = results.configs[task.name] ?? {};
    const genKwargs = (results.config.gen_kwargs ?? {}) as Record<string, unknown>;
    const difference = firstDifference(resultsConfig(task.config, genKwargs), recorded, '');
    if (difference) {
      throw new AssayError(
        'bad_argument',
        `task ${task.name} changed since the shards ran (${difference}); merge with the task files the shards used`,
        { location: { task: task.name } },
      );
    }
    // The config's own hash (older results have only `sha256`, which was the config's): the data files
    // are not read again here.
    const recordedTask = results.manifest.tasks[task.name];
    const sha = recordedTask?.config_sha256 ?? recordedTask?.sha256;
    if (sha && sha !== task.source.sha256) {
      throw new AssayError(
        'bad_argument',
        `task ${task.name}: ${task.source.path} is not the file the shards ran (sha256 ${task.source.sha256.slice(0, 12)}, shards ${sha.slice(0, 12)})`,
        { location: { task: task.name, file: task.source.path } },
      );
    }
  }
}

/** The docs a single run selects, in its order: --samples as given, else the first sampleSize ids. */
function selection(task: string, run: ShardRun): number[] {
  const requested = run.shard.samples?.[task];
  if (requested) return requested;
  const limit = run.results.config.limit;
  const original = run.results['n-samples'][task]?.original ?? 0;
  const count = sampleSize(original, typeof limit === 'number' ? limit : undefined);
  return Array.from({ length: count }, (_, i) => i);
}

/**
 * The shards' lines for one task, in the order a run writes them; each shard must hold exactly its slice
 * of the selection.
 */
function mergeLogs(task: LoadedTask, runs: ShardRun[]): { lines: SampleLine[] } {
  const all = selection(task.name, runs[0]);
  const entries: SampleLine[] = [];
  for (const run of runs) {
    const log = run.logs.get(task.name);
    if (!log) throw new Error(`unreachable: shard without the log of ${task.name}`);
    const expected = shardDocIds(all, run.shard);
    const held = [...new Set(log.lines.map((line) => line.doc_id))];
    const wanted = new Set(expected);
    const extra = held.filter((id) => !wanted.has(id));
    const heldSet = new Set(held);
    const absent = expected.filter((id) => !heldSet.has(id));
    if (extra.length || absent.length) {
      const list = (ids: number[]) => ids.slice(0, 8).join(', ') + (ids.length > 8 ? ', …' : '');
      throw new AssayError(
        'bad_data',
        `shard ${run.shard.index}/${run.shard.count}: the sample log of ${task.name} ` +
          [
            extra.length ? `holds docs outside its slice (${list(extra)})` : '',
            absent.length ? `lacks docs of its slice (${list(absent)})` : '',
          ]
            .filter(Boolean)
            .join(' and '),
        { location: { file: log.file, task: task.name } },
      );
    }
    entries.push(...log.lines);
  }
  // As an unsharded run writes them (and lm-eval): all docs under the first filter, then the next;
  // docs by id.
  const filters = task.config.filter_list?.length
    ? task.config.filter_list.map((filter) => buildFilterPipeline(filter).name)
    : [defaultFilterPipeline().name];
  const rank = (line: SampleLine) => filters.indexOf(line.filter);
  entries.sort((a, b) => rank(a) - rank(b) || a.doc_id - b.doc_id);
  return { lines: entries };
}

/**
 * A ScoredTask as scoring left it, rebuilt from sample lines: docs in selection order (the order
 * aggregation and bootstrap resampling see them in), per-filter metric values from the lines.
 */
async function rebuildScoredTask(
  task: LoadedTask,
  lines: SampleLine[],
  runs: ShardRun[],
): Promise<ScoredTask> {
  const results = runs[0].results;
  const byDoc = new Map<number, SampleLine[]>();
  for (const line of lines) {
    const list = byDoc.get(line.doc_id);
    if (list) list.push(line);
    else byDoc.set(line.doc_id, [line]);
  }
  const order = selection(task.name, runs[0]);
  const repeats = task.config.repeats ?? 1;
  const logged = new Map<PlannedDoc['doc'], number>();
  for (const docId of order) {
    const line = byDoc.get(docId)?.[0];
    if (line) logged.set(line.doc as PlannedDoc['doc'], docId);
  }
  await prepareDocFunctions(task.config, logged, new Map());
  const docs: PlannedDoc[] = order.map((docId) => {
    const docLines = byDoc.get(docId) ?? [];
    const line = docLines[0];
    const location = { task: task.name, docId };
    const { config } = task;
    const choices =
      config.doc_to_choice === undefined ? undefined : docToChoice(config, line.doc as never, location);
    const text = docToText(config, line.doc as never, location);
    const target = docToTarget(config, line.doc as never, location);
    return {
      docId,
      doc: line.doc as PlannedDoc['doc'],
      fewshotIds: line.fewshot_ids,
      // As the planner does: for multiple-input tasks the gold is doc_to_text's index.
      target: config.output_type === 'multiple_choice' && typeof text === 'number' ? text : target,
      choices,
      instances: repeats > 1 ? instancesFrom(task, line) : [],
    };
  });
  const plan: TaskPlan = {
    task,
    numFewshot: results['n-shot'][task.name] ?? 0,
    docs,
    original: results['n-samples'][task.name]?.original ?? 0,
    metricList: metricListFor(task),
  };
  const filters = task.config.filter_list?.length
    ? task.config.filter_list.map((filter) => buildFilterPipeline(filter).name)
    : [defaultFilterPipeline().name];
  const byFilter = new Map<string, ScoredDoc[]>();
  for (const filter of filters) {
    byFilter.set(
      filter,
      docs.map((planned) => {
        const line = byDoc.get(planned.docId)?.find((candidate) => candidate.filter === filter);
        if (!line) {
          throw new AssayError('bad_data', `the sample logs have no line for filter ${filter}`, {
            location: { task: task.name, docId: planned.docId },
          });
        }
        return scoredFromLine(line);
      }),
    );
  }
  return { plan, filters, byFilter };
}

function scoredFromLine(line: SampleLine): ScoredDoc {
  const metrics: Record<string, unknown> = {};
  for (const name of line.metrics) {
    // JSON writes NaN as null; a metric value of null only ever comes from a NaN.
    metrics[name] = line[name] === null ? Number.NaN : line[name];
  }
  const scored: ScoredDoc = {
    docId: line.doc_id,
    filter: line.filter,
    filtered: line.filtered_resps,
    metrics,
  };
  if (line.error !== undefined) scored.error = line.error;
  if (line.timed_out === true) scored.timedOut = true;
  if (line.ppl_doc) {
    // JSON writes NaN as null, as for metric values.
    scored.ppl = { ...line.ppl_doc, logprob: line.ppl_doc.logprob ?? Number.NaN };
  }
  return scored;
}

function reportIdentity(report: PerplexityReport): ReportIdentity {
  return {
    mode: report.mode,
    mode_source: report.mode_source,
    parameters: report.parameters,
    tokenizer: report.tokenizer,
  };
}

/**
 * The task's perplexity block, rebuilt as a run builds it: from each doc's `ppl_doc` (log-likelihood,
 * token and window counts) and metric pairs in the merged logs, in selection order. The mode, parameters
 * and tokenizer come from the shards (equal in all of them); seconds are summed (timing).
 */
function mergePerplexity(name: string, scored: ScoredTask, runs: ShardRun[]): PerplexityReport | undefined {
  const recorded = runs[0].results.perplexity?.[name];
  if (!recorded) return undefined;
  const docs = scored.byFilter.get(scored.filters[0]) ?? [];
  const missing = docs.find((doc) => doc.error === undefined && doc.ppl === undefined);
  if (missing) {
    throw new AssayError(
      'bad_data',
      `the sample logs of ${name} lack the per-doc perplexity counts (ppl_doc) that merging its perplexity block needs; they were written by an older assay: run the shards again`,
      { location: { task: name, docId: missing.docId } },
    );
  }
  const seconds = runs.reduce((total, run) => total + (run.results.perplexity?.[name]?.seconds ?? 0), 0);
  return perplexityReport(reportIdentity(recorded), docs, seconds);
}

/**
 * Responses back from a line's `resps` (Python str() of each value), for the per-repeat statistics of
 * tasks with repeats > 1, which re-score each repeat. Only `resps` is read after scoring.
 */
function instancesFrom(task: LoadedTask, line: SampleLine): Instance[] {
  const outputType = task.config.output_type;
  const parse = (value: unknown): Response => {
    if (outputType === 'generate_until') return String(value);
    if (outputType === 'loglikelihood_rolling') return pythonFloat(String(value));
    const [logprob, greedy] = value as [string, string];
    return { logprob: pythonFloat(logprob), isGreedy: greedy === 'True' };
  };
  return line.resps.map((resps, index) => ({
    task: task.name,
    docId: line.doc_id,
    index,
    repeats: task.config.repeats ?? 1,
    args: { type: 'loglikelihood_rolling', text: '' },
    resps: (resps as unknown[]).map(parse),
  }));
}

function pythonFloat(text: string): number {
  if (text === 'nan') return Number.NaN;
  if (text === 'inf') return Number.POSITIVE_INFINITY;
  if (text === '-inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

/**
 * The merged results.json: the scores recomputed, everything else from shard 0 without its shard marks,
 * timing merged (earliest start, summed evaluation seconds and request counts).
 */
function assembleResults(
  template: ResultsFile,
  runs: ShardRun[],
  computed: {
    nodes: TaskNode[];
    plans: TaskPlan[];
    taskResults: TaskResult[];
    groupResults: GroupResult[];
    taskHashes: Record<string, string>;
  },
): ResultsFile {
  const single = withoutShard(template);
  // buildResults lays out the score sections (tree order, aliases, stats) exactly as a run does; the
  // backend and options it also reads only feed fields taken from the shards below.
  const built = buildResults({
    ...computed,
    backend: recordedBackend(single),
    options: recordedOptions(single),
    latency: {},
    startDate: 0,
    seconds: 0,
  });
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(built) as Array<keyof ResultsFile>) {
    merged[key] = COMPUTED.has(key) ? built[key] : single[key];
  }
  merged.date = Math.min(...runs.map((run) => run.results.date));
  merged.total_evaluation_time_seconds = String(
    runs.reduce((sum, run) => sum + Number(run.results.total_evaluation_time_seconds), 0),
  );
  merged.request_stats = mergeRequestStats(runs.map((run) => run.results.request_stats));
  // The merged run is partial when it was limited, or when docs errored in any shard; the causes are
  // the shards' (sample logs keep only the messages).
  merged.partial = single.partial || built.errors.samples > 0 || (built.timeouts?.samples ?? 0) > 0;
  const causes = runs.map((run) => (run.results as Partial<ResultsFile>).errors?.by_cause);
  if (built.errors.samples > 0 && causes.every((byCause) => byCause !== undefined)) {
    const byCause: Record<string, number> = {};
    for (const shard of causes)
      for (const [cause, count] of Object.entries(shard ?? {}))
        byCause[cause] = (byCause[cause] ?? 0) + count;
    merged.errors = { ...built.errors, by_cause: byCause };
  }
  return merged as unknown as ResultsFile;
}

function recordedBackend(results: ResultsFile): ModelBackend & ChatTemplating {
  const refuse = (): never => {
    throw new Error('unreachable: a merged run sends no requests');
  };
  return {
    specificationVersion: 'v1',
    name: results.model_source,
    capabilities: {
      loglikelihood: false,
      loglikelihoodRolling: false,
      generate: false,
      tokenScoring: false,
      generationLogprobs: false,
      // Only the recorded template text is read.
      chatTemplate: true,
      usage: false,
    },
    loglikelihood: refuse,
    loglikelihoodRolling: refuse,
    generate: refuse,
    applyChatTemplate: refuse,
    info: () => results.manifest.model.info,
    chatTemplate: () => results.chat_template ?? undefined,
  };
}

function recordedOptions(results: ResultsFile): RunOptions {
  return {
    seeds: results.manifest.seeds,
    applyChatTemplate: results.manifest.chat_template.applied,
    fewshotAsMultiturn: results.fewshot_as_multiturn,
    genKwargs: {},
    bootstrapIters: Number(results.config.bootstrap_iters),
    predictOnly: false,
    maxLatencyS: (results as Partial<ResultsFile>).timeouts?.max_latency_s,
    modelLabel: {
      model: results.model_source,
      modelArgs: results.config.model_args as Record<string, unknown>,
      batchSize: results.config.batch_size as string,
    },
  };
}

/**
 * Counts add up; latency percentiles of the union cannot be recovered from per-shard percentiles, so
 * they are null (timing fields, outside the identity with a single run).
 */
function mergeRequestStats(all: ResultsFile['request_stats'][]): ResultsFile['request_stats'] {
  const out: ResultsFile['request_stats'] = {};
  for (const stats of all) {
    for (const type of ['loglikelihood', 'loglikelihood_rolling', 'generate_until'] as const) {
      const entry = stats[type];
      if (!entry) continue;
      const sum = out[type] ?? { seconds: 0, requests: 0 };
      out[type] = { seconds: sum.seconds + entry.seconds, requests: sum.requests + entry.requests };
    }
  }
  const usages = all.map((stats) => stats.usage).filter((usage) => usage !== undefined);
  if (usages.length) {
    const total = (pick: (usage: (typeof usages)[number]) => number) =>
      usages.reduce((sum, usage) => sum + pick(usage), 0);
    const seconds = total((usage) => usage.seconds);
    const requests = total((usage) => usage.requests);
    out.usage = {
      requests,
      httpRequests: total((usage) => usage.httpRequests),
      cachedRequests: total((usage) => usage.cachedRequests),
      retries: total((usage) => usage.retries),
      failedRequests: total((usage) => usage.failedRequests),
      seconds,
      requestsPerSecond: seconds > 0 ? requests / seconds : 0,
      latencyP50Ms: null,
      latencyP95Ms: null,
      tokensIn: total((usage) => usage.tokensIn),
      tokensOut: total((usage) => usage.tokensOut),
      costUsd: usages.every((usage) => usage.costUsd === null) ? null : total((usage) => usage.costUsd ?? 0),
    };
  }
  return out;
}
