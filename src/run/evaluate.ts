/**
 * The composition root of a run, what `assay run` and the library's `evaluate` call: resolves the tasks
 * and the model, runs the evaluation stage (evaluate/), turns its output into results (results/) and
 * writes them. It sits above both folders, so neither imports the other's way back.
 */
import { AssayError, closestNames } from '../errors.js';
import { prepareCodeSandbox } from '../evaluate/code-stage.js';
import { effectiveNumFewshot } from '../evaluate/num-fewshot.js';
import { checkPins, type TaskPins } from '../evaluate/pins.js';
import type { TaskPlan } from '../evaluate/plan.js';
import { type ResolvedRunOptions, type RunOptionsInput, resolveRunOptions } from '../evaluate/run-options.js';
import { modelNameFrom } from '../evaluate/run-record.js';
import { checkTaskIntegrity } from '../evaluate/task-integrity.js';
import { type Logger, type RunListener, withListener } from '../events.js';
import {
  type AnyVersionBackend,
  checkBackendSpec,
  type ModelBackend,
  toCurrentSpec,
} from '../models/backend.js';
import { checkModelArgs, createBackend } from '../models/registry.js';
import { deviceWarning, withRunSettings } from '../models/run-settings.js';
import type { PythonRuntime } from '../python/python-runtime.js';
import { startGitLookups } from '../report/manifest.js';
import {
  outputDirectory,
  prepareOutputDirectory,
  type WrittenFiles,
  writeOutputs,
} from '../report/output.js';
import type { RunResult } from '../report/run-output.js';
import type { SampleSpool } from '../report/sample-spool.js';
import { sanitizeModelName } from '../report/write.js';
import { checkIncludePath } from '../tasks/include-path.js';
import { resolveTasks } from '../tasks/manager.js';
import { pythonRefsOf, startPythonFor } from '../tasks/python-for-tasks.js';
import { applyRunMetadata } from '../tasks/run-metadata.js';
import { type LoadedTask, leafTasks, type TaskNode } from '../tasks/task.js';
import type { BackendPool } from './backend-pool.js';
import { checkThinkingTasks } from './thinking-check.js';

export type { Logger };

/** What a run reports to, beside its options: the events of the run and its warnings. */
export interface RunHooks {
  listener?: RunListener;
  logger?: Logger;
}

/** What a run may borrow instead of making: backends another caller keeps open (a suite's models). */
export interface RunResources {
  /** The backend comes from this pool and stays open after the run; the pool's owner closes it. */
  backends?: BackendPool;
}

/**
 * Docs per chunk of a task evaluated in chunks (evaluate/chunked-task.ts), when the run writes its sample
 * logs: a larger task that can be is planned, answered, scored and logged this many docs at a time.
 */
export const CHUNK_DOCS = 10_000;

/** Not options: what tests of the chunked evaluation set (a tiny chunk, to exercise several). */
export interface RunInternals {
  chunkDocs?: number;
}

/**
 * The library's options (the schema in evaluate/run-options.ts): typed values, never command-line text.
 * Errors name these fields (`limit`, `numFewshot`, `outputPath`); `assay run` shows its flags instead.
 */
export type EvaluateOptions = RunOptionsInput & RunHooks;

/** The options of a run whatever its model: `evaluate`'s without the model's own. */
export type CommonOptions = Omit<
  EvaluateOptions,
  'model' | 'modelArgs' | 'device' | 'maxBatchSize' | 'trustRemoteCode'
>;

export interface SimpleEvaluateOptions extends CommonOptions {
  /**
   * A backend object the caller already holds (say, inside a training loop), of backend spec v2 or v1
   * (adapted to v2).
   */
  model: AnyVersionBackend;
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

async function loadNodes(options: ResolvedRunOptions & RunHooks): Promise<TaskNode[]> {
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

/**
 * What a run sets up from its resolved options before the model is asked anything: every check that
 * needs the tasks but not the model has passed.
 */
interface PreparedRun {
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
  /** The output folder, made and probed (with `outputPath`). */
  directory?: string;
}

async function prepareRun(options: ResolvedRunOptions & RunHooks, modelName: string): Promise<PreparedRun> {
  checkIncludePath(options.includePath);
  // The results record two git answers; they are asked now, while the run goes on.
  void startGitLookups();
  // The output folder is made and probed now, so an unwritable path fails before the evaluation.
  const directory = options.outputPath
    ? await prepareOutputDirectory(options.outputPath, modelName)
    : undefined;
  if (options.checkIntegrity) await checkTaskIntegrity(options);
  const nodes = await loadNodes(options);
  if (nodes.length === 0) throw new AssayError('unknown_task', 'no tasks given; pass `tasks`');
  if (options.metadata) applyRunMetadata(nodes, options.metadata);
  const tasks = nodes.flatMap(leafTasks);
  checkSamplesTasks(options.samples, tasks);
  const pins = checkPins(options.expectSha256, tasks);
  checkNumFewshot(options.numFewshot, tasks, options.logger);
  if (options.limit !== undefined) {
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
      seeds: options.seeds,
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
  return { nodes, codeSandbox, python, pins, stages, directory };
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
  options: ResolvedRunOptions & RunHooks & RunInternals,
  prepared: PreparedRun,
): Promise<PlannedEvaluation> {
  const { stages, directory } = prepared;
  const [{ runEvaluation }, { runOutput }] = await stages;
  // With sample logs written, a large task's lines are written as its chunks are scored, so the run
  // never holds all of them, nor its plan (evaluate/chunked-task.ts).
  const spool =
    directory && options.logSamples
      ? (await import('../report/sample-spool.js')).SampleSpool.create(directory, options.includePerExample)
      : undefined;
  try {
    return await runWithSpool(backend, label, options, prepared, runEvaluation, runOutput, spool);
  } finally {
    spool?.remove();
  }
}

async function runWithSpool(
  backend: ModelBackend,
  label: { model: string; modelArgs: Record<string, unknown> | string },
  options: ResolvedRunOptions & RunHooks & RunInternals,
  prepared: PreparedRun,
  runEvaluation: typeof import('../evaluate/run-evaluation.js').runEvaluation,
  runOutput: typeof import('../report/run-output.js').runOutput,
  spool: SampleSpool | undefined,
): Promise<PlannedEvaluation> {
  const { nodes, codeSandbox, python, pins } = prepared;
  const chunking = spool && { size: options.chunkDocs ?? CHUNK_DOCS, onChunk: spool.onChunk };
  const evaluated = await runEvaluation(
    backend,
    nodes,
    {
      ...options,
      codeSandbox,
      pythonRuntime: python,
      pins,
      shardRecord: options.shard && {
        index: options.shard.index,
        count: options.shard.count,
        tasks: options.tasks.filter((task): task is string => typeof task === 'string'),
        include_path: options.includePath ?? null,
        samples: options.samples ?? null,
        predict_only: options.predictOnly,
        ...(options.metadata ? { metadata: options.metadata } : {}),
      },
      modelLabel: label,
    },
    chunking,
  ).finally(() => closePrepared(prepared));
  spool?.close();
  const { plans, ...output } = runOutput(evaluated, spool);
  let files: WrittenFiles | undefined;
  if (options.outputPath) {
    options.listener?.({ type: 'phase', phase: 'writing' });
    files = await writeOutputs(output, {
      outputPath: options.outputPath,
      logSamples: options.logSamples,
      includePerExample: options.includePerExample,
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
  return evaluateResolved({
    ...resolveRunOptions(options),
    listener: options.listener,
    logger: options.logger,
  });
}

/** `evaluateWithPlans` for options already resolved (what `assay run`'s option table yields). */
export async function evaluateResolved(
  options: ResolvedRunOptions & RunHooks & RunResources & RunInternals,
): Promise<PlannedEvaluation> {
  return withListener(options.listener, () => evaluateByName(options));
}

async function evaluateByName(
  options: ResolvedRunOptions & RunHooks & RunResources & RunInternals,
): Promise<PlannedEvaluation> {
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
  const backendArgs = { seed: options.seeds.random ?? undefined, ...modelArgs };
  // Cheap checks first: a typo in the model args is reported before tasks load or a model file opens.
  await checkModelArgs(options.model, backendArgs);
  // results.json records the model args; an API key must never land there.
  const recorded = 'api_key' in modelArgs ? { ...modelArgs, api_key: '<redacted>' } : modelArgs;
  const modelName = modelNameFrom(options.model, recorded);
  options.listener?.({ type: 'phase', phase: 'loading', detail: 'tasks' });
  const prepared = await prepareRun(options, modelName);
  try {
    checkThinkingTasks(backendArgs, prepared.nodes, options.mcMode);
  } catch (error) {
    await closePrepared(prepared);
    throw error;
  }
  let backend: ModelBackend;
  try {
    options.listener?.({ type: 'phase', phase: 'loading', detail: `model ${modelName}` });
    const context = {
      cachePath: options.useCache,
      outputDirectory: options.outputPath
        ? outputDirectory(options.outputPath, sanitizeModelName(modelName))
        : undefined,
      listener: options.listener,
      warn: options.logger ? (message: string) => options.logger?.warn(message) : undefined,
    };
    backend = options.backends
      ? await options.backends.acquire(options.model, backendArgs, context)
      : await createBackend(options.model, backendArgs, context);
  } catch (error) {
    await closePrepared(prepared);
    throw error;
  }
  const unusedGpu = deviceWarning(options.model, options.device, backend.info?.() ?? {});
  if (unusedGpu) options.logger?.warn(unusedGpu);
  try {
    return await run(backend, { model: options.model, modelArgs: recorded }, options, prepared);
  } finally {
    if (!options.backends) await backend.close?.();
  }
}

/** Evaluates a backend the caller holds. Writes nothing unless `outputPath` is given. */
export async function simpleEvaluate(options: SimpleEvaluateOptions): Promise<EvaluateResult> {
  const { model: given, modelName, listener, logger, ...rest } = options;
  checkBackendSpec(given, modelName ?? String(given?.name));
  const backend = toCurrentSpec(given);
  const label = { model: modelName ?? backend.name, modelArgs: {} };
  const resolved = { ...resolveRunOptions({ ...rest, model: label.model }), listener, logger };
  return withListener(listener, async () => {
    const prepared = await prepareRun(resolved, modelNameFrom(label.model, {}));
    return (await run(backend, label, resolved, prepared)).result;
  });
}
