/**
 * `assay run`'s option table, keyed by the fields it sets: the library's run options (the schema in
 * evaluate/run-options.ts, whose defaults they take) and the command's own settings below. Every field
 * has a row with its flag (lm-eval's name), a table of its own fields, or `null`: a field added to either
 * type without one does not compile. lm-eval's own flags that assay has no use for are here too, each
 * refused with what to use instead.
 */
import { RUN_DEFAULTS } from '../evaluate/run-defaults.js';
import type { RunOptionsInput } from '../evaluate/run-options.js';
import { QUIET_FLAGS, TABLE_FLAGS, type TableStyle } from './console-flags.js';
import { choice, integer, keyValues, list, refused, seconds, switchFlag, text } from './flag-values.js';
import { type FlagTable, flagTable, type OptionFlags } from './option-table.js';
import {
  type CacheRequests,
  cacheRequestsFlag,
  chatTemplateFlag,
  codeMemoryFlag,
  codeTimeoutFlag,
  limitFlag,
  metadataFlag,
  pinsFlag,
  samplesFlag,
  seedFlag,
  shardFlag,
  type Verbosity,
  verbosityFlag,
} from './run-flag-values.js';

const lmEvalTracker = (what: string, instead: string) => (flag: string) =>
  `${flag} is lm-eval's ${what}; in assay use ${instead}`;

/** The perplexity window flags, shared by `run` and `ppl`. */
export const PPL_WINDOW_FLAGS = {
  ppl_stride: {
    value: '<tokens>',
    help: 'strided: a window starts every S tokens (default: half the window)',
    parse: integer(1),
    field: 'perplexity.stride',
  },
  ppl_max_length: {
    value: '<tokens>',
    help: 'strided: window length; chunked: chunk size n_ctx (default: the model context)',
    parse: integer(1),
    field: 'perplexity.maxLength',
  },
} satisfies FlagTable;

export const RUN_OPTION_FLAGS = {
  config: {
    flag: 'config',
    short: 'C',
    value: '<file>',
    help: 'YAML file whose keys are the flags below (CLI values win)',
    parse: text,
    configKey: false,
  },
  model: {
    flag: 'model',
    short: 'M',
    value: '<name>',
    help: 'model backend (the list is below)',
    parse: text,
  },
  modelArgs: {
    flag: 'model_args',
    short: 'a',
    value: '<args>',
    help: 'k=v,k2=v2 or a JSON object, passed to the backend',
    parse: keyValues,
  },
  tasks: {
    flag: 'tasks',
    short: 't',
    value: '<tasks...>',
    help: 'task/group/tag names, globs, YAML/JSONL/TS files or directories (comma or space separated)',
    parse: list,
  },
  numFewshot: {
    flag: 'num_fewshot',
    short: 'f',
    value: '<n>',
    help: 'few-shot examples per doc (tasks that pin num_fewshot: 0 keep 0)',
    parse: integer(0),
  },
  batchSize: {
    flag: 'batch_size',
    short: 'b',
    value: '<size>',
    help: 'batch size: a number, auto or auto:N (recorded; backends batch as their model args say)',
    parse: (raw: unknown, flag: string): number | string => {
      const shown = String(raw).trim();
      if (/^auto(:\d+)?$/.test(shown)) return shown;
      return integer(1)(shown, flag);
    },
    showDefault: true,
  },
  maxBatchSize: {
    flag: 'max_batch_size',
    value: '<n>',
    help: 'vllm, sglang: the sequences the server batches at once (--max-num-seqs, --max-running-requests)',
    parse: integer(1),
  },
  device: {
    flag: 'device',
    value: '<device>',
    help: 'gguf: cpu, or a GPU (cuda, cuda:0, mps, auto) as gpu=; sglang: its --device; refused elsewhere with the reason',
    parse: text,
  },
  outputPath: {
    flag: 'output_path',
    short: 'o',
    value: '<path>',
    help: 'directory (or .json path) for results, samples and leaderboard_<time>.json',
    parse: text,
  },
  limit: {
    flag: 'limit',
    short: 'L',
    value: '<n>',
    help: 'first N docs per task, or a fraction below 1 (for testing only)',
    parse: limitFlag,
  },
  samples: {
    flag: 'samples',
    short: 'E',
    value: '<json>',
    help: 'per-task doc ids: JSON object or a JSON file',
    parse: samplesFlag,
  },
  shard: {
    flag: 'shard',
    value: '<i/N|auto>',
    help: 'evaluate the i-th of N slices of every task (docs at positions k mod N = i after --limit/--samples); auto (or auto/N) reads i and N from a Slurm array, a Kubernetes Indexed Job or torchrun; combine with assay merge',
    parse: shardFlag(),
  },
  mcMode: {
    flag: 'mc_mode',
    value: '<mode>',
    help: 'multiple-choice tasks: loglikelihood | generate (lettered options, the answer letter extracted; for chat endpoints)',
    parse: choice(['loglikelihood', 'generate']),
    defaultHelp: 'loglikelihood',
  },
  logSamples: {
    flag: 'log_samples',
    short: 's',
    help: 'write samples_<task>_<time>.jsonl',
    parse: switchFlag,
  },
  predictOnly: {
    flag: 'predict_only',
    short: 'x',
    help: 'generate and log samples without computing metrics',
    parse: switchFlag,
  },
  seeds: {
    flag: 'seed',
    value: '<seeds>',
    help: 'python,numpy,torch,fewshot seeds (one value sets all; None leaves one unseeded)',
    parse: seedFlag,
    defaultHelp: '0,1234,1234,1234',
  },
  genKwargs: {
    flag: 'gen_kwargs',
    value: '<args>',
    help: 'merged into generate_until tasks’ generation_kwargs (k=v or JSON)',
    parse: keyValues,
  },
  includePath: {
    flag: 'include_path',
    value: '<dirs...>',
    help: 'extra task directories (later ones override earlier); lm_eval names the installed lm-eval’s tasks',
    parse: list,
  },
  metadata: {
    flag: 'metadata',
    value: '<json>',
    help: 'JSON object merged into every task’s metadata, as lm-eval (e.g. RULER’s max_seq_lengths)',
    parse: metadataFlag,
  },
  applyChatTemplate: {
    flag: 'apply_chat_template',
    value: '[name]',
    help: 'render prompts with the model’s chat template (or the named one)',
    parse: chatTemplateFlag,
  },
  systemInstruction: {
    flag: 'system_instruction',
    value: '<text>',
    help: 'system message prepended to every prompt',
    parse: text,
  },
  fewshotAsMultiturn: {
    flag: 'fewshot_as_multiturn',
    value: '[bool]',
    help: 'few-shot examples as user/assistant turns (default on with a chat template)',
    parse: switchFlag,
  },
  useCache: {
    flag: 'use_cache',
    short: 'c',
    value: '<path>',
    help: 'SQLite response cache: answers are written as they arrive; a rerun re-sends nothing already answered',
    parse: text,
  },
  cacheRequests: {
    flag: 'cache_requests',
    value: '[true|refresh|delete]',
    help: 'accepted for lm-eval: assay builds requests in milliseconds and caches none, so this does nothing',
    parse: cacheRequestsFlag,
  },
  checkIntegrity: {
    flag: 'check_integrity',
    help: 'check the tasks as assay validate does (data and doc 0’s requests) before loading the model; stop if one fails',
    parse: switchFlag,
  },
  trustRemoteCode: {
    flag: 'trust_remote_code',
    help: 'vllm, sglang: start the server with --trust-remote-code (assay itself runs no code from the Hub)',
    parse: switchFlag,
  },
  verbosity: {
    flag: 'verbosity',
    short: 'v',
    value: '<level>',
    help: 'DEBUG (also stack traces) | INFO (progress and warnings) | WARNING (warnings only) | ERROR | CRITICAL (errors only)',
    parse: verbosityFlag,
    default: 'INFO' as const,
  },
  quiet: { flag: 'quiet', ...QUIET_FLAGS.quiet },
  table: { flag: 'table', ...TABLE_FLAGS.table },
  showConfig: {
    flag: 'show_config',
    help: 'print the whole results JSON, task configs included',
    parse: switchFlag,
  },
  writeOut: {
    flag: 'write_out',
    short: 'w',
    help: 'print the prompt and target of doc 0 of each task',
    parse: switchFlag,
  },
  bootstrapIters: {
    flag: 'bootstrap_iters',
    value: '<n>',
    help: 'bootstrap iterations for stderr of non-mean metrics (0 disables stderr)',
    parse: integer(0),
    showDefault: true,
  },
  includePerExample: {
    flag: 'include_per_example',
    help: 'add per-example predictions to leaderboard_<time>.json',
    parse: switchFlag,
  },
  maxLatencyS: {
    flag: 'max_latency_s',
    value: '<seconds>',
    help: 'per-request latency cap: a request not answered in time is cancelled and counts as timed out (not wrong, not an error); metrics cover the docs answered in time',
    parse: seconds,
    defaultHelp: 'no cap',
  },
  expectSha256: {
    flag: 'expect_sha256',
    value: '<pins>',
    help: 'task=SHA256,… or a JSON file {"task": "sha256"}: refuse the run (exit 2) when a task’s content (config and data files) differs, before any model request',
    parse: pinsFlag,
  },
  hfHubLogArgs: {
    flag: 'hf_hub_log_args',
    value: '<args>',
    help: "push results and samples to a Hub dataset at the end (lm-eval's keys: hub_results_org, details_repo_name, results_repo_name, push_results_to_hub, push_samples_to_hub, public_repo; needs --output_path and HF_TOKEN)",
    parse: keyValues,
  },
  wandbArgs: {
    flag: 'wandb_args',
    value: '<args>',
    help: 'refused: use assay export RUN --to mlflow (or --to hub)',
    parse: refused(
      lmEvalTracker(
        'Weights & Biases logger (W&B’s upload protocol has no published API to implement and test a client against)',
        'assay export RUN --to mlflow (MLflow), or --hf_hub_log_args / assay export RUN --to hub (a Hugging Face dataset)',
      ),
    ),
  },
  wandbConfigArgs: {
    flag: 'wandb_config_args',
    value: '<args>',
    help: 'refused: as --wandb_args',
    parse: refused(
      lmEvalTracker(
        'Weights & Biases run config',
        'assay export RUN --to mlflow, which logs the run’s config as MLflow params',
      ),
    ),
  },
  trackioArgs: {
    flag: 'trackio_args',
    value: '<args>',
    help: 'refused: use assay export RUN --to mlflow',
    parse: refused(
      lmEvalTracker(
        'Trackio logger',
        'assay export RUN --to mlflow (MLflow) or --to hub (a Hugging Face dataset)',
      ),
    ),
  },
  confirmRunUnsafeCode: {
    flag: 'confirm_run_unsafe_code',
    help: 'allow tasks marked unsafe_code (they run model-written code in the sandbox)',
    parse: switchFlag,
  },
  unsafeCodeWithoutSandbox: {
    flag: 'unsafe_code_without_sandbox',
    help: 'when bubblewrap cannot start, run model-written code with rlimits only (UNSAFE; recorded in the manifest)',
    parse: switchFlag,
  },
  sandbox: {
    fields: {
      workers: {
        flag: 'code_workers',
        value: '<n>',
        help: 'programs run in parallel by code metrics (default: one per core)',
        parse: integer(0),
      },
      limits: {
        fields: {
          timeoutMs: {
            flag: 'code_timeout',
            value: '<seconds>',
            help: 'wall-clock limit per program run by code metrics (default: 10)',
            parse: codeTimeoutFlag,
          },
          memoryBytes: {
            flag: 'code_memory',
            value: '<size>',
            help: 'memory bound per program run by code metrics, all its processes and its /tmp together (default: 2G; at least 1G)',
            parse: codeMemoryFlag,
          },
          // Set by the schema from timeoutMs (--code_timeout); the other bounds are the sandbox's.
          cpuSeconds: null,
          processes: null,
          fileSizeBytes: null,
          openFiles: null,
          outputBytes: null,
          tmpBytes: null,
        },
      },
      // The interpreters and the cgroup are the library's to set; the CLI takes the sandbox's defaults.
      python: null,
      node: null,
      bwrap: null,
      cgroup: null,
    },
  },
  python: {
    flag: 'python',
    value: '<path>',
    help: 'Python interpreter for tasks whose !function lives in a utils.py (default: $ASSAY_PYTHON, else python3 on PATH); started only when a task needs it',
    parse: text,
  },
  perplexity: {
    fields: {
      mode: {
        flag: 'ppl_mode',
        value: '<mode>',
        help: 'perplexity of loglikelihood_rolling tasks: rolling (lm-eval) | strided (HF sliding windows) | chunked (llama-perplexity)',
        parse: choice(['rolling', 'strided', 'chunked']),
        defaultHelp: 'rolling',
      },
      stride: { flag: 'ppl_stride', ...PPL_WINDOW_FLAGS.ppl_stride },
      maxLength: { flag: 'ppl_max_length', ...PPL_WINDOW_FLAGS.ppl_max_length },
    },
  },
  // Set by the command from the task sources (cli/task-sources.ts), not a flag of its own.
  indexCacheDir: null,
} satisfies OptionFlags<RunOptionsInput> & OptionFlags<RunCommandSettings>;

/** What `assay run` itself does with its flags, beside the library's options: printing and tracking. */
export interface RunCommandSettings {
  /** The YAML file of flags (read before the others). */
  config?: string;
  verbosity?: Verbosity;
  quiet?: boolean;
  table?: TableStyle;
  showConfig?: boolean;
  writeOut?: boolean;
  cacheRequests?: CacheRequests;
  /** lm-eval's Hub push: pushes the written run at the end. */
  hfHubLogArgs?: Record<string, unknown>;
  wandbArgs?: never;
  wandbConfigArgs?: never;
  trackioArgs?: never;
}

/** The rows of RUN_OPTION_FLAGS that are the command's own (the others set the library's options). */
const COMMAND_SETTINGS = [
  'config',
  'verbosity',
  'quiet',
  'table',
  'showConfig',
  'writeOut',
  'cacheRequests',
  'hfHubLogArgs',
  'wandbArgs',
  'wandbConfigArgs',
  'trackioArgs',
] as const satisfies ReadonlyArray<keyof RunCommandSettings>;

/**
 * `assay run`'s flags in their order, as commander, --config, help and docs/cli.md read them. Loaded at
 * every start-up, so it reads the types of the options' schema but not the schema (zod loads with the
 * command).
 */
export const RUN_FLAGS: FlagTable = flagTable(RUN_OPTION_FLAGS, {
  libraryFields: Object.keys(RUN_OPTION_FLAGS).filter(
    (key) => !(COMMAND_SETTINGS as readonly string[]).includes(key),
  ),
  defaults: RUN_DEFAULTS,
});
