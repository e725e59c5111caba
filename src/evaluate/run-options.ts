/**
 * The run's options, as one zod schema: every field once, with its default (the plain ones from
 * run-defaults.ts, which the CLI's help reads without loading zod) and its check. `evaluate`
 * and `simpleEvaluate` resolve what a caller gives through it (`resolveRunOptions`), `assay run`'s
 * option table is typed over its input (cli/run-flags.ts: a field without a flag does not compile), the
 * stages take `Pick`s of its output, and the run record (run-record.ts) is a function of that output.
 * Errors name the fields in backticks (`maxLatencyS`); the CLI shows its flags instead.
 */
import { z } from 'zod';
import { AssayError } from '../errors.js';
import type { RunListener } from '../events.js';
import type { PythonRuntime } from '../python/python-runtime.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import type { TaskNode } from '../tasks/task.js';
import { type Limit, limitValue } from './limit.js';
import { checkMcMode, type McMode } from './mc-generate.js';
import { PPL_MODES } from './perplexity/settings.js';
import type { TaskPins } from './pins.js';
import { RUN_DEFAULTS } from './run-defaults.js';
import { type Seeds, settleSeeds } from './seeds.js';
import { checkShard, type Shard, type ShardRecord } from './shard.js';

/** A value the schema only types; the function named beside it checks it (and says what is wrong). */
const checkedBy = <T>() => z.custom<T>(() => true);

/** A field whose check is a predicate, with the message a failure gives (field in backticks). */
const refined = <T>(valid: (value: unknown) => boolean, message: (value: unknown) => string) =>
  z.custom<T>(valid, { error: (issue) => message(issue.input) });

const shown = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));
const nonNegativeInteger = (field: string) =>
  refined<number>(
    (value) => Number.isInteger(value) && (value as number) >= 0,
    (value) => `\`${field}\` must be a non-negative integer, got ${shown(value)}`,
  );
const positiveInteger = (field: string) =>
  refined<number>(
    (value) => Number.isInteger(value) && (value as number) >= 1,
    (value) => `\`${field}\` must be an integer of at least 1, got ${shown(value)}`,
  );
const record = z.record(z.string(), z.unknown());

/** lm-eval's samples: task name → doc ids (the names are checked against the run's tasks once loaded). */
function checkSamples(value: Record<string, number[]>): Record<string, number[]> {
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

/** Bounds of the sandbox's programs (sandbox/types.ts SandboxLimits); unset ones take the sandbox's defaults. */
const sandboxLimits = z
  .object({
    timeoutMs: positiveInteger('sandbox.limits.timeoutMs').optional(),
    /** Default: the wall-clock limit, rounded up to whole seconds. */
    cpuSeconds: positiveInteger('sandbox.limits.cpuSeconds').optional(),
    memoryBytes: positiveInteger('sandbox.limits.memoryBytes').optional(),
    processes: positiveInteger('sandbox.limits.processes').optional(),
    fileSizeBytes: positiveInteger('sandbox.limits.fileSizeBytes').optional(),
    openFiles: positiveInteger('sandbox.limits.openFiles').optional(),
    outputBytes: positiveInteger('sandbox.limits.outputBytes').optional(),
    tmpBytes: positiveInteger('sandbox.limits.tmpBytes').optional(),
  })
  .transform((limits) =>
    limits.timeoutMs !== undefined && limits.cpuSeconds === undefined
      ? { ...limits, cpuSeconds: Math.ceil(limits.timeoutMs / 1000) }
      : limits,
  );

const runOptionFields = z.object({
  /** The registered backend (`dummy`, `gguf`, `local-completions`, …); `simpleEvaluate`: the name recorded. */
  model: refined<string>(
    (value) => typeof value === 'string' && value !== '',
    (value) => `\`model\` must name a backend, got ${shown(value)}`,
  ),
  /** Passed to the backend (lm-eval's model_args). */
  modelArgs: record.optional(),
  /** Task names, globs, files or directories (lm-eval's --tasks), or tasks already loaded. */
  tasks: z.array(z.union([z.string(), checkedBy<TaskNode>()])),
  includePath: z.array(z.string()).optional(),
  /** Folder of cached task-index scans (`<assay cache>/task-index`); absent: task folders are scanned. */
  indexCacheDir: z.string().optional(),
  numFewshot: nonNegativeInteger('numFewshot').optional(),
  /** The first N docs of each task, or `{ fraction }` of each (ceil); for testing only. */
  limit: checkedBy<Limit>()
    .transform((limit) => {
      limitValue(limit);
      return limit;
    })
    .optional(),
  /** lm-eval's samples: task name → the doc ids to evaluate, in this order. Not with `limit`. */
  samples: checkedBy<Record<string, number[]>>().transform(checkSamples).optional(),
  /** Evaluate only this slice of every task's docs (see `assay merge` and `mergeShards`). */
  shard: checkedBy<Shard>().transform(checkShard).optional(),
  /** `generate`: multiple-choice tasks answered by generation (a letter), for chat endpoints. */
  mcMode: checkedBy<McMode>().optional().transform(checkMcMode),
  /** Seeds of lm-eval's generators; each one left out takes lm-eval's default (0, 1234, 1234, 1234). */
  seeds: checkedBy<Partial<Seeds>>().optional().transform(settleSeeds),
  /** Merged into every generate_until task's generation_kwargs (lm-eval's gen_kwargs). */
  genKwargs: record.default(() => ({})),
  /** false, true (the backend's default template) or a template name. */
  applyChatTemplate: z.union([z.boolean(), z.string()]).default(RUN_DEFAULTS.applyChatTemplate),
  systemInstruction: z.string().optional(),
  /** Default: on with a chat template (lm-eval ≥ 0.4.10). */
  fewshotAsMultiturn: z.boolean().optional(),
  /** Bootstrap iterations for the stderr of non-mean metrics; 0: no stderr. */
  bootstrapIters: nonNegativeInteger('bootstrapIters').default(RUN_DEFAULTS.bootstrapIters),
  predictOnly: z.boolean().default(RUN_DEFAULTS.predictOnly),
  /** Write samples_<task>_<time>.jsonl; default: with `predictOnly`. */
  logSamples: z.boolean().optional(),
  outputPath: z.string().optional(),
  includePerExample: z.boolean().default(RUN_DEFAULTS.includePerExample),
  /** Recorded in results.json (lm-eval's batch_size); backends batch as their own model args say. */
  batchSize: z.union([z.number(), z.string()]).default(RUN_DEFAULTS.batchSize),
  /** lm-eval's max_batch_size: the sequences a managed server batches (vLLM, SGLang). */
  maxBatchSize: positiveInteger('maxBatchSize').optional(),
  /** lm-eval's device (`cuda`, `cuda:0`, `cpu`, `mps`): gguf's `gpu=`, SGLang's `--device`. */
  device: z.string().optional(),
  /** Given to the servers assay starts; assay itself runs no code from the Hub. */
  trustRemoteCode: z.boolean().optional(),
  /** SQLite response cache: answers are written as they arrive; a rerun re-sends nothing answered. */
  useCache: z.string().optional(),
  /** Merged into every task's `metadata` (lm-eval's --metadata; the run's keys win). */
  metadata: record.optional(),
  /** Before the run, check its tasks as `assay validate` does (lm-eval's check_integrity); stop on a failure. */
  checkIntegrity: z.boolean().optional(),
  /** lm-eval's --confirm_run_unsafe_code: tasks marked unsafe_code run only with it. */
  confirmRunUnsafeCode: z.boolean().optional(),
  /** Run code with rlimits only when bubblewrap is unavailable: the manifest records it loudly. */
  unsafeCodeWithoutSandbox: z.boolean().optional(),
  /** Limits, worker count and interpreters for the sandbox (sandbox/sandbox.ts CreateSandboxOptions). */
  sandbox: z
    .object({
      limits: sandboxLimits.optional(),
      workers: nonNegativeInteger('sandbox.workers').optional(),
      python: z.string().optional(),
      node: z.string().optional(),
      bwrap: z.string().optional(),
      /** Try a cgroup v2 subtree for the memory bound (default); false holds it with RLIMIT_AS alone. */
      cgroup: z.boolean().optional(),
    })
    .optional(),
  /** The perplexity mode of loglikelihood_rolling tasks and its parameters (perplexity/settings.ts). */
  perplexity: z
    .object({
      mode: z.enum(PPL_MODES).optional(),
      stride: positiveInteger('perplexity.stride').optional(),
      maxLength: positiveInteger('perplexity.maxLength').optional(),
    })
    .optional(),
  /**
   * The interpreter for tasks with Python functions; default ASSAY_PYTHON, else python3 on PATH.
   * Started only when a task needs it.
   */
  python: z.string().optional(),
  /**
   * Task name → the content sha256 it must have (its config and every data file it reads). A task that
   * differs stops the run once its docs are loaded, before any model request (pins.ts checks the values).
   */
  expectSha256: checkedBy<TaskPins>().optional(),
  /**
   * The longest a request may take, in seconds, on any backend. A request not answered in time is
   * cancelled (where the backend can be) and its doc counts as timed out: in no metric, not an error,
   * counted in the task's `timeouts`.
   */
  maxLatencyS: refined<number>(
    (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
    (value) => `\`maxLatencyS\` must be a positive number of seconds, got ${JSON.stringify(value)}`,
  ).optional(),
});

/** Every field, so that a resolved option left out is there, undefined (what a reader of the options sees). */
const UNSET = Object.fromEntries(Object.keys(runOptionFields.shape).map((key) => [key, undefined]));

export const runOptionsSchema = runOptionFields.transform((options) => {
  if (options.limit !== undefined && options.samples !== undefined) {
    throw new AssayError('bad_option', '`limit` and `samples` cannot be used together', {
      location: { field: 'limit' },
    });
  }
  if (options.fewshotAsMultiturn === true && options.applyChatTemplate === false) {
    throw new AssayError('bad_option', '`fewshotAsMultiturn` needs `applyChatTemplate`', {
      location: { field: 'fewshotAsMultiturn' },
    });
  }
  return {
    ...(UNSET as Partial<typeof options>),
    ...options,
    fewshotAsMultiturn: options.fewshotAsMultiturn ?? options.applyChatTemplate !== false,
    logSamples: options.logSamples ?? options.predictOnly,
  };
});

/** What a caller gives: every field but `model` and `tasks` may be left out. */
export type RunOptionsInput = z.input<typeof runOptionsSchema>;
/** The options resolved: defaults applied, every value checked. */
export type ResolvedRunOptions = z.output<typeof runOptionsSchema>;

/** The options resolved, or an AssayError naming the first field that is wrong (exit 2, before any work). */
export function resolveRunOptions(options: RunOptionsInput): ResolvedRunOptions {
  const parsed = runOptionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.join('.');
  const message = issue.message.startsWith('`') ? issue.message : `\`${field}\`: ${issue.message}`;
  throw new AssayError('bad_option', message, { location: { field } });
}

/**
 * What one evaluation (runEvaluation) reads: the resolved options it uses, and what the run set up for
 * it from them.
 */
export type RunOptions = Pick<
  ResolvedRunOptions,
  | 'limit'
  | 'samples'
  | 'shard'
  | 'mcMode'
  | 'numFewshot'
  | 'seeds'
  | 'systemInstruction'
  | 'applyChatTemplate'
  | 'fewshotAsMultiturn'
  | 'genKwargs'
  | 'bootstrapIters'
  | 'predictOnly'
  | 'batchSize'
  | 'useCache'
  | 'perplexity'
  | 'maxLatencyS'
> & {
  /** What results.json records about the shard (with the task specs `assay merge` reloads). */
  shardRecord?: ShardRecord;
  /** The model as asked for: results.json's `config` block records it (an API key already redacted). */
  modelLabel: { model: string; modelArgs: Record<string, unknown> | string };
  listener?: RunListener;
  /** Runs model-written code for code metrics; set only when the run's tasks were confirmed as unsafe_code. */
  codeSandbox?: CodeSandbox;
  /** The Python worker the tasks' Python functions are bound to, when any task has them (the manifest records it). */
  pythonRuntime?: PythonRuntime;
  /** Task → expected content sha256 (`expectSha256`), checked once the docs are loaded. */
  pins?: TaskPins;
};
