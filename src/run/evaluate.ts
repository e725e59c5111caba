/**
 * The composition root of a run, what `assay run` and the library's `evaluate` call: resolves the tasks
 * and the model, runs the evaluation stage (evaluate/), turns its output into results (results/) and
 * writes them. It sits above both folders, so neither imports the other's way back.
 */
import { AssayError, closestNames } from '../errors.js';
import { type CodeExecutionOptions, prepareCodeSandbox } from '../evaluate/code-stage.js';
import { type Limit, limitValue } from '../evaluate/limit.js';
import { checkMcMode, type McMode } from '../evaluate/mc-generate.js';
import { effectiveNumFewshot } from '../evaluate/num-fewshot.js';
import type { PerplexityOptions } from '../evaluate/perplexity/settings.js';
import { checkPins, type TaskPins } from '../evaluate/pins.js';
import type { TaskPlan } from '../evaluate/plan.js';
import type { Seeds } from '../evaluate/run-options.js';
import { modelNameFrom } from '../evaluate/run-record.js';
import { settleSeeds } from '../evaluate/seeds.js';
import { checkShard, type Shard } from '../evaluate/shard.js';
import { checkTaskIntegrity } from '../evaluate/task-integrity.js';
import { type Logger, type RunListener, withListener } from '../events.js';
import { checkBackendSpec, type ModelBackend } from '../models/backend.js';
import { checkModelArgs, createBackend } from '../models/registry.js';
import { deviceWarning, type RunModelSettings, withRunSettings } from '../models/run-settings.js';
import type { PythonRuntime } from '../python/python-runtime.js';
import { startGitLookups } from '../report/manifest.js';
import {
  outputDirectory,
  prepareOutputDirectory,
  type WrittenFiles,
  writeOutputs,
} from '../report/output.js';
import type { RunResult } from '../report/run-output.js';
import { sanitizeModelName } from '../report/write.js';
import { checkIncludePath } from '../tasks/include-path.js';
import { resolveTasks } from '../tasks/manager.js';
import { pythonRefsOf, startPythonFor } from '../tasks/python-for-tasks.js';
import { applyRunMetadata } from '../tasks/run-metadata.js';
import { type LoadedTask, leafTasks, type TaskNode } from '../tasks/task.js';
import { checkThinkingTasks } from './thinking-check.js';

export type { Logger };

/**
 * The library's options: typed values, never command-line text (the CLI parses its flags into these).
 * Errors name these fields (`limit`, `numFewshot`, `outputPath`); `assay run` shows its flags instead.
 */
export interface CommonOptions extends CodeExecutionOptions {
  /** Task names, globs, files or directories (lm-eval's --tasks), or tasks already loaded. */
  tasks: Array<string | TaskNode>;
  includePath?: string[];
  /** Folder of cached task-index scans (`<assay cache>/task-index`); absent: task folders are scanned. */
  indexCacheDir?: string;
  numFewshot?: number;
  /** The first N docs of each task, or `{ fraction }` of each (ceil); for testing only. */
  limit?: Limit;
  /** lm-eval's samples: task name → the doc ids to evaluate, in this order. Not with `limit`. */
  samples?: Record<string, number[]>;
  /** Evaluate only this slice of every task's docs (see `assay merge` and `mergeShards`). */
  shard?: Shard;
  /** `generate`: multiple-choice tasks answered by generation (a letter), for chat endpoints. */
  mcMode?: McMode;
  /** Seeds of lm-eval's generators; each one left out takes lm-eval's default (0, 1234, 1234, 1234). */
  seeds?: Partial<Seeds>;
  /** Merged into every generate_until task's generation_kwargs (lm-eval's gen_kwargs). */
  genKwargs?: Record<string, unknown>;
  applyChatTemplate?: boolean | string;
  systemInstruction?: string;
  fewshotAsMultiturn?: boolean;
  bootstrapIters?: number;
  predictOnly?: boolean;
  logSamples?: boolean;
  outputPath?: string;
  includePerExample?: boolean;
  /** Recorded in results.json (lm-eval's batch_size); backends batch as their own model args say. */
  batchSize?: number | string;
  useCache?: string;
  /** Merged into every task's `metadata` (lm-eval's --metadata; the run's keys win). */
  metadata?: Record<string, unknown>;
  /** Before the run, check its tasks as `assay validate` does (lm-eval's check_integrity); stop on a failure. */
  checkIntegrity?: boolean;
  listener?: RunListener;
  logger?: Logger;
  /** The perplexity mode of loglikelihood_rolling tasks and its parameters. */
  perplexity?: PerplexityOptions;
  /**
   * The interpreter for tasks with Python functions; default ASSAY_PYTHON, else python3 on PATH.
   * Started only when a task needs it.
   */
  python?: string;
  /**
   * `--expect_sha256`: task name → the content sha256 it must have (its config and every data file it
   * reads). A task that differs stops the run once its docs are loaded, before any model request.
   */
  expectSha256?: TaskPins;
  /**
   * `--max_latency_s`: the longest a request may take, in seconds, on any backend. A request not answered
   * in time is cancelled (where the backend can be) and its doc counts as timed out: in no metric, not an
   * error, counted in the task's `timeouts`.
   */
  maxLatencyS?: number;
}

export interface EvaluateOptions extends CommonOptions, RunModelSettings {
  model: string;
  modelArgs?: Record<string, unknown>;
}

export interface SimpleEvaluateOptions extends CommonOptions {
  /** A backend object the caller already holds (say, inside a training loop). */
  model: ModelBackend;
  /** Recorded in results.json; defaults to the backend's name. */
  modelName?: string;
}

/**
 * What `evaluate` and `simpleEvaluate` return: plain data (the results file, the sample lines, the scores
 * they were written from), every part a type the package exports.
 */
export interface EvaluateResult extends RunResult {
  /** The files written, when `outputPath` was given. */
  files?: WrittenFiles;
}

/** An evaluation with the plans it ran, for the CLI (`--write_out` prints each task's first prompt). */
export interface PlannedEvaluation {
  result: EvaluateResult;
  plans: TaskPlan[];
}

/** The doc ids per task, as given (a library caller's object is checked here; the CLI reads files). */
function checkSamples(value: CommonOptions['samples']): Record<string, number[]> | undefined {
  if (value === undefined) return undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new AssayError('bad_option', '`samples` must be an object of task name → doc ids', {
      location: { field: 'samples' },
    });
  }
  for (const [task, ids] of Object.entries(value)) {
    if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id))) {
      throw new AssayError('bad_option', `\`samples\`: task ${task} must map to a list of integer doc ids`, {
        location: { field: 'samples' },
      });
    }
  }
  return value;
}

async function loadNodes(options: CommonOptions): Promise<TaskNode[]> {
  const specs = options.tasks.filter((task): task is string => typeof task === 'string');
  const loaded = options.tasks.filter((task): task is TaskNode => typeof task !== 'string');
  const resolved = specs.length
    ? await resolveTasks(specs, {
        includePath: options.includePath,
        logger: options.logger,
        python: options.python,
        indexCacheDir: options.indexCacheDir,
      })
    : [];
  return [...loaded, ...resolved];
}

/** Everything about a run that can be checked without the model, checked before it is asked anything. */
interface PreparedRun {
  limit?: number;
  samples?: Record<string, number[]>;
  shard?: Shard;
  mcMode?: McMode;
  seeds: Seeds;
  genKwargs: Record<string, unknown>;
  applyChatTemplate: boolean | string;
  nodes: TaskNode[];
  codeSandbox: Awaited<ReturnType<typeof prepareCodeSandbox>>;
  python?: PythonRuntime;
  pins?: TaskPins;
  /**
   * The evaluation's code, loading since the run's checks passed rather than at start-up: Node loads it
   * while the backend starts (a GGUF engine takes about a second) and, with Python tasks, while the worker
   * maps the first split (see prepareRun).
   */
  stages: Promise<[typeof import('../evaluate/run-evaluation.js'), typeof import('../report/run-output.js')]>;
}

async function prepareRun(options: CommonOptions, modelName: string): Promise<PreparedRun> {
  const limit = limitValue(options.limit);
  const samples = checkSamples(options.samples);
  if (limit !== undefined && samples !== undefined) {
    throw new AssayError('bad_option', '`limit` and `samples` cannot be used together', {
      location: { field: 'limit' },
    });
  }
  const shard = checkShard(options.shard);
  const cap = options.maxLatencyS;
  if (cap !== undefined && !(typeof cap === 'number' && Number.isFinite(cap) && cap > 0)) {
    throw new AssayError(
      'bad_option',
      `\`maxLatencyS\` must be a positive number of seconds, got ${JSON.stringify(cap)}`,
      { location: { field: 'maxLatencyS' } },
    );
  }
  const mcMode = checkMcMode(options.mcMode);
  const seeds = settleSeeds(options.seeds);
  const genKwargs = options.genKwargs ?? {};
  const applyChatTemplate = options.applyChatTemplate ?? false;
  if (options.fewshotAsMultiturn === true && applyChatTemplate === false) {
    throw new AssayError('bad_option', '`fewshotAsMultiturn` needs `applyChatTemplate`', {
      location: { field: 'fewshotAsMultiturn' },
    });
  }
  checkIncludePath(options.includePath);
  // The results record two git answers; they are asked now, while the run goes on.
  void startGitLookups();
  // The output folder is made and probed now, so an unwritable path fails before the evaluation.
  if (options.outputPath) await prepareOutputDirectory(options.outputPath, modelName);
  if (options.checkIntegrity) await checkTaskIntegrity(options);
  const nodes = await loadNodes(options);
  if (nodes.length === 0) throw new AssayError('unknown_task', 'no tasks given; pass `tasks`');
  if (options.metadata) applyRunMetadata(nodes, options.metadata);
  const tasks = nodes.flatMap(leafTasks);
  checkSamplesTasks(samples, tasks);
  const pins = checkPins(options.expectSha256, tasks);
  checkNumFewshot(options.numFewshot, tasks, options.logger);
  if (limit !== undefined) {
    options.logger?.warn(
      '`limit` SHOULD ONLY BE USED FOR TESTING. REAL METRICS SHOULD NOT BE COMPUTED USING LIMIT.',
    );
  }
  const codeSandbox = await prepareCodeSandbox(nodes, options, options.logger);
  let python: PythonRuntime | undefined;
  // Node would wait while the worker starts (~0.1 s): the tasks' local eval splits are read meanwhile.
  if (pythonRefsOf(nodes).length > 0) for (const task of tasks) task.prefetchEvalDocs?.();
  try {
    // Before any request: a task whose Python functions cannot run stops the run here (exit 2).
    python = await startPythonFor(nodes, {
      python: options.python,
      seeds,
      onStderr: (line) => options.logger?.warn(`python: ${line}`),
    });
  } catch (error) {
    codeSandbox?.close();
    throw error;
  }
  // The first task planned reads its split first: its process_docs can start now, while the backend is
  // created and the evaluation's code loads. Only the first, so Python sees its calls in the order it
  // would without this (planning asks for each task's docs in turn).
  if (python) tasks[0]?.startEvalDocs?.();
  const stages = Promise.all([import('../evaluate/run-evaluation.js'), import('../report/run-output.js')]);
  // A failure to load is reported where the run awaits it; a run that stops before then never does.
  stages.catch(() => {});
  return {
    limit,
    samples,
    shard,
    mcMode,
    seeds,
    genKwargs,
    applyChatTemplate,
    nodes,
    codeSandbox,
    python,
    pins,
    stages,
  };
}

/** Stops what prepareRun started (the sandbox's workers, the Python worker). */
async function closePrepared(prepared: PreparedRun): Promise<void> {
  prepared.codeSandbox?.close();
  await prepared.python?.close();
}

/** lm-eval ignores samples keys that name no task, so a typo silently runs every doc. */
function checkSamplesTasks(samples: Record<string, number[]> | undefined, tasks: LoadedTask[]): void {
  if (!samples) return;
  const names = [...new Set(tasks.map((task) => task.name))];
  for (const key of Object.keys(samples)) {
    if (names.includes(key)) continue;
    const close = closestNames(key, names, 1);
    throw new AssayError(
      'bad_option',
      `\`samples\` names task "${key}", which is not in this run${close.length ? `; did you mean "${close[0]}"?` : ''} (tasks: ${names.join(', ')})`,
      { location: { field: 'samples' } },
    );
  }
}

/**
 * A task whose config pins num_fewshot: 0 keeps 0 whatever `numFewshot` says (lm-eval's rule). When
 * that is every task, the flag would only mislabel the run, so it is an error; otherwise each such
 * task is named in a warning.
 */
function checkNumFewshot(numFewshot: number | undefined, tasks: LoadedTask[], logger?: Logger): void {
  if (numFewshot === undefined || numFewshot === 0) return;
  const pinned = tasks.filter((task) => effectiveNumFewshot(task, numFewshot) === 0);
  if (pinned.length === 0) return;
  const why = (task: LoadedTask) =>
    task.source.format === 'jsonl'
      ? 'a JSONL task has no examples to draw from'
      : 'its config pins num_fewshot: 0';
  if (pinned.length === tasks.length) {
    throw new AssayError(
      'bad_option',
      `\`numFewshot\` ${numFewshot}: no task in this run can take few-shot examples (${pinned
        .map((task) => `${task.name}: ${why(task)}`)
        .join('; ')}); drop \`numFewshot\``,
      { location: { field: 'numFewshot' } },
    );
  }
  for (const task of pinned) {
    logger?.warn(
      `\`numFewshot\` ${numFewshot} does not apply to ${task.name} (${why(task)}): it runs 0-shot`,
    );
  }
}

async function run(
  backend: ModelBackend,
  label: { model: string; modelArgs: Record<string, unknown> | string },
  options: CommonOptions,
  prepared: PreparedRun,
): Promise<PlannedEvaluation> {
  // What prepareRun settled goes to the evaluation as it is (its fields are RunOptions' own).
  const { nodes, stages, ...settled } = prepared;
  const { shard, samples, applyChatTemplate } = settled;
  const [{ runEvaluation }, { runOutput }] = await stages;
  const evaluated = await runEvaluation(backend, nodes, {
    ...settled,
    shardRecord: shard && {
      index: shard.index,
      count: shard.count,
      tasks: options.tasks.filter((task): task is string => typeof task === 'string'),
      include_path: options.includePath ?? null,
      samples: samples ?? null,
      predict_only: options.predictOnly ?? false,
      ...(options.metadata ? { metadata: options.metadata } : {}),
    },
    numFewshot: options.numFewshot,
    systemInstruction: options.systemInstruction,
    // lm-eval ≥ 0.4.10: few-shot as multi-turn is the default under a chat template.
    fewshotAsMultiturn: options.fewshotAsMultiturn ?? applyChatTemplate !== false,
    bootstrapIters: options.bootstrapIters ?? 100000,
    predictOnly: options.predictOnly ?? false,
    modelLabel: { ...label, batchSize: options.batchSize ?? 1 },
    useCache: options.useCache ?? null,
    listener: options.listener,
    perplexity: options.perplexity,
    maxLatencyS: options.maxLatencyS,
  }).finally(() => closePrepared(prepared));
  const { plans, ...output } = runOutput(evaluated);
  let files: WrittenFiles | undefined;
  if (options.outputPath) {
    options.listener?.({ type: 'phase', phase: 'writing' });
    files = await writeOutputs(output, {
      outputPath: options.outputPath,
      logSamples: options.logSamples ?? options.predictOnly ?? false,
      includePerExample: options.includePerExample ?? false,
    });
  }
  return { result: { ...output, files }, plans };
}

/**
 * Creates the backend by name, evaluates, and writes outputs when asked. Work reached lazily below the
 * options (Hub downloads, process_docs) reports to `listener` too.
 */
export async function evaluate(options: EvaluateOptions): Promise<EvaluateResult> {
  return (await evaluateWithPlans(options)).result;
}

/** `evaluate` with the plans it ran: what `assay run` calls. */
export async function evaluateWithPlans(options: EvaluateOptions): Promise<PlannedEvaluation> {
  return withListener(options.listener, () => evaluateByName(options));
}

async function evaluateByName(options: EvaluateOptions): Promise<PlannedEvaluation> {
  if ((options.logSamples || options.predictOnly) && !options.outputPath) {
    throw new AssayError('bad_option', '`outputPath` is required with `logSamples` or `predictOnly`', {
      location: { field: 'outputPath' },
    });
  }
  // A shard is only useful merged, and `assay merge` re-aggregates from the sample logs.
  if (options.shard !== undefined && !(options.outputPath && (options.logSamples || options.predictOnly))) {
    throw new AssayError(
      'bad_option',
      '`shard` needs `outputPath` and `logSamples`: assay merge reads the sample logs',
      { location: { field: 'shard' } },
    );
  }
  const modelArgs = withRunSettings(options.model, options.modelArgs ?? {}, options);
  const backendArgs = { seed: settleSeeds(options.seeds).random ?? undefined, ...modelArgs };
  // Cheap checks first: a typo in the model args is reported before tasks load or a model file opens.
  await checkModelArgs(options.model, backendArgs);
  // results.json records the model args; an API key must never land there.
  const recorded = 'api_key' in modelArgs ? { ...modelArgs, api_key: '<redacted>' } : modelArgs;
  const modelName = modelNameFrom(options.model, recorded);
  options.listener?.({ type: 'phase', phase: 'loading', detail: 'tasks' });
  const prepared = await prepareRun(options, modelName);
  try {
    checkThinkingTasks(backendArgs, prepared.nodes, prepared.mcMode);
  } catch (error) {
    await closePrepared(prepared);
    throw error;
  }
  let backend: ModelBackend;
  try {
    options.listener?.({ type: 'phase', phase: 'loading', detail: `model ${modelName}` });
    backend = await createBackend(options.model, backendArgs, {
      cachePath: options.useCache,
      outputDirectory: options.outputPath
        ? outputDirectory(options.outputPath, sanitizeModelName(modelName))
        : undefined,
      listener: options.listener,
      warn: options.logger ? (message) => options.logger?.warn(message) : undefined,
    });
  } catch (error) {
    await closePrepared(prepared);
    throw error;
  }
  const unusedGpu = deviceWarning(options.model, options.device, backend.info?.() ?? {});
  if (unusedGpu) options.logger?.warn(unusedGpu);
  try {
    return await run(backend, { model: options.model, modelArgs: recorded }, options, prepared);
  } finally {
    await backend.close?.();
  }
}

/** Evaluates a backend the caller holds. Writes nothing unless `outputPath` is given. */
export async function simpleEvaluate(options: SimpleEvaluateOptions): Promise<EvaluateResult> {
  checkBackendSpec(options.model, options.modelName ?? String(options.model?.name));
  const label = { model: options.modelName ?? options.model.name, modelArgs: {} };
  return withListener(options.listener, async () => {
    const prepared = await prepareRun(options, modelNameFrom(label.model, {}));
    return (await run(options.model, label, options, prepared)).result;
  });
}
