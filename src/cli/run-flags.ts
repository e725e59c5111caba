/**
 * `assay run`'s option table: every flag once, with lm-eval's name, and the library option it sets.
 * lm-eval's own flags that assay has no use for are here too, each refused with what to use instead.
 */
import { QUIET_FLAGS, TABLE_FLAGS } from './console-flags.js';
import { choice, integer, keyValues, list, refused, seconds, switchFlag, text } from './flag-values.js';
import type { FlagTable } from './option-table.js';
import {
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

export const RUN_FLAGS = {
  config: {
    short: 'C',
    value: '<file>',
    help: 'YAML file whose keys are the flags below (CLI values win)',
    parse: text,
    configKey: false,
  },
  model: {
    short: 'M',
    value: '<name>',
    help: 'model backend (the list is below)',
    parse: text,
    field: 'model',
  },
  model_args: {
    short: 'a',
    value: '<args>',
    help: 'k=v,k2=v2 or a JSON object, passed to the backend',
    parse: keyValues,
    field: 'modelArgs',
  },
  tasks: {
    short: 't',
    value: '<tasks...>',
    help: 'task/group/tag names, globs, YAML/JSONL/TS files or directories (comma or space separated)',
    parse: list,
    field: 'tasks',
  },
  num_fewshot: {
    short: 'f',
    value: '<n>',
    help: 'few-shot examples per doc (tasks that pin num_fewshot: 0 keep 0)',
    parse: integer(0),
    field: 'numFewshot',
  },
  batch_size: {
    short: 'b',
    value: '<size>',
    help: 'batch size: a number, auto or auto:N (recorded; backends batch as their model args say)',
    parse: (raw: unknown, flag: string): number | string => {
      const shown = String(raw).trim();
      if (/^auto(:\d+)?$/.test(shown)) return shown;
      return integer(1)(shown, flag);
    },
    default: 1,
    field: 'batchSize',
  },
  max_batch_size: {
    value: '<n>',
    help: 'vllm, sglang: the sequences the server batches at once (--max-num-seqs, --max-running-requests)',
    parse: integer(1),
    field: 'maxBatchSize',
  },
  device: {
    value: '<device>',
    help: 'gguf: cpu, or a GPU (cuda, cuda:0, mps, auto) as gpu=; sglang: its --device; refused elsewhere with the reason',
    parse: text,
    field: 'device',
  },
  output_path: {
    short: 'o',
    value: '<path>',
    help: 'directory (or .json path) for results, samples and leaderboard_<time>.json',
    parse: text,
    field: 'outputPath',
  },
  limit: {
    short: 'L',
    value: '<n>',
    help: 'first N docs per task, or a fraction below 1 (for testing only)',
    parse: limitFlag,
    field: 'limit',
  },
  samples: {
    short: 'E',
    value: '<json>',
    help: 'per-task doc ids: JSON object or a JSON file',
    parse: samplesFlag,
    field: 'samples',
  },
  shard: {
    value: '<i/N|auto>',
    help: 'evaluate the i-th of N slices of every task (docs at positions k mod N = i after --limit/--samples); auto (or auto/N) reads i and N from a Slurm array, a Kubernetes Indexed Job or torchrun; combine with assay merge',
    parse: shardFlag(),
    field: 'shard',
  },
  mc_mode: {
    value: '<mode>',
    help: 'multiple-choice tasks: loglikelihood | generate (lettered options, the answer letter extracted; for chat endpoints)',
    parse: choice(['loglikelihood', 'generate']),
    defaultHelp: 'loglikelihood',
    field: 'mcMode',
  },
  log_samples: {
    short: 's',
    help: 'write samples_<task>_<time>.jsonl',
    parse: switchFlag,
    field: 'logSamples',
  },
  predict_only: {
    short: 'x',
    help: 'generate and log samples without computing metrics',
    parse: switchFlag,
    field: 'predictOnly',
  },
  seed: {
    value: '<seeds>',
    help: 'python,numpy,torch,fewshot seeds (one value sets all; None leaves one unseeded)',
    parse: seedFlag,
    defaultHelp: '0,1234,1234,1234',
    field: 'seeds',
  },
  gen_kwargs: {
    value: '<args>',
    help: 'merged into generate_until tasks’ generation_kwargs (k=v or JSON)',
    parse: keyValues,
    field: 'genKwargs',
  },
  include_path: {
    value: '<dirs...>',
    help: 'extra task directories (later ones override earlier); lm_eval names the installed lm-eval’s tasks',
    parse: list,
    field: 'includePath',
  },
  metadata: {
    value: '<json>',
    help: 'JSON object merged into every task’s metadata, as lm-eval (e.g. RULER’s max_seq_lengths)',
    parse: metadataFlag,
    field: 'metadata',
  },
  apply_chat_template: {
    value: '[name]',
    help: 'render prompts with the model’s chat template (or the named one)',
    parse: chatTemplateFlag,
    field: 'applyChatTemplate',
  },
  system_instruction: {
    value: '<text>',
    help: 'system message prepended to every prompt',
    parse: text,
    field: 'systemInstruction',
  },
  fewshot_as_multiturn: {
    value: '[bool]',
    help: 'few-shot examples as user/assistant turns (default on with a chat template)',
    parse: switchFlag,
    field: 'fewshotAsMultiturn',
  },
  use_cache: {
    short: 'c',
    value: '<path>',
    help: 'SQLite response cache: answers are written as they arrive; a rerun re-sends nothing already answered',
    parse: text,
    field: 'useCache',
  },
  cache_requests: {
    value: '[true|refresh|delete]',
    help: 'accepted for lm-eval: assay builds requests in milliseconds and caches none, so this does nothing',
    parse: cacheRequestsFlag,
  },
  check_integrity: {
    help: 'check the tasks as assay validate does (data and doc 0’s requests) before loading the model; stop if one fails',
    parse: switchFlag,
    field: 'checkIntegrity',
  },
  trust_remote_code: {
    help: 'vllm, sglang: start the server with --trust-remote-code (assay itself runs no code from the Hub)',
    parse: switchFlag,
    field: 'trustRemoteCode',
  },
  verbosity: {
    short: 'v',
    value: '<level>',
    help: 'DEBUG (also stack traces) | INFO (progress and warnings) | WARNING (warnings only) | ERROR | CRITICAL (errors only)',
    parse: verbosityFlag,
    default: 'INFO' as const,
  },
  ...QUIET_FLAGS,
  ...TABLE_FLAGS,
  show_config: { help: 'print the whole results JSON, task configs included', parse: switchFlag },
  write_out: { short: 'w', help: 'print the prompt and target of doc 0 of each task', parse: switchFlag },
  bootstrap_iters: {
    value: '<n>',
    help: 'bootstrap iterations for stderr of non-mean metrics (0 disables stderr)',
    parse: integer(0),
    default: 100000,
    field: 'bootstrapIters',
  },
  include_per_example: {
    help: 'add per-example predictions to leaderboard_<time>.json',
    parse: switchFlag,
    field: 'includePerExample',
  },
  max_latency_s: {
    value: '<seconds>',
    help: 'per-request latency cap: a request not answered in time is cancelled and counts as timed out (not wrong, not an error); metrics cover the docs answered in time',
    parse: seconds,
    defaultHelp: 'no cap',
    field: 'maxLatencyS',
  },
  expect_sha256: {
    value: '<pins>',
    help: 'task=SHA256,… or a JSON file {"task": "sha256"}: refuse the run (exit 2) when a task’s content (config and data files) differs, before any model request',
    parse: pinsFlag,
    field: 'expectSha256',
  },
  hf_hub_log_args: {
    value: '<args>',
    help: "push results and samples to a Hub dataset at the end (lm-eval's keys: hub_results_org, details_repo_name, results_repo_name, push_results_to_hub, push_samples_to_hub, public_repo; needs --output_path and HF_TOKEN)",
    parse: keyValues,
  },
  wandb_args: {
    value: '<args>',
    help: 'refused: use assay export RUN --to mlflow (or --to hub)',
    parse: refused(
      lmEvalTracker(
        'Weights & Biases logger (W&B’s upload protocol has no published API to implement and test a client against)',
        'assay export RUN --to mlflow (MLflow), or --hf_hub_log_args / assay export RUN --to hub (a Hugging Face dataset)',
      ),
    ),
  },
  wandb_config_args: {
    value: '<args>',
    help: 'refused: as --wandb_args',
    parse: refused(
      lmEvalTracker(
        'Weights & Biases run config',
        'assay export RUN --to mlflow, which logs the run’s config as MLflow params',
      ),
    ),
  },
  trackio_args: {
    value: '<args>',
    help: 'refused: use assay export RUN --to mlflow',
    parse: refused(
      lmEvalTracker(
        'Trackio logger',
        'assay export RUN --to mlflow (MLflow) or --to hub (a Hugging Face dataset)',
      ),
    ),
  },
  confirm_run_unsafe_code: {
    help: 'allow tasks marked unsafe_code (they run model-written code in the sandbox)',
    parse: switchFlag,
    field: 'confirmRunUnsafeCode',
  },
  unsafe_code_without_sandbox: {
    help: 'when bubblewrap cannot start, run model-written code with rlimits only (UNSAFE; recorded in the manifest)',
    parse: switchFlag,
    field: 'unsafeCodeWithoutSandbox',
  },
  code_workers: {
    value: '<n>',
    help: 'programs run in parallel by code metrics (default: one per core)',
    parse: integer(0),
    field: 'sandbox.workers',
  },
  code_timeout: {
    value: '<seconds>',
    help: 'wall-clock limit per program run by code metrics (default: 10)',
    parse: codeTimeoutFlag,
    field: 'sandbox.limits.timeoutMs',
  },
  code_memory: {
    value: '<size>',
    help: 'memory bound per program run by code metrics, all its processes and its /tmp together (default: 2G; at least 1G)',
    parse: codeMemoryFlag,
    field: 'sandbox.limits.memoryBytes',
  },
  python: {
    value: '<path>',
    help: 'Python interpreter for tasks whose !function lives in a utils.py (default: $ASSAY_PYTHON, else python3 on PATH); started only when a task needs it',
    parse: text,
    field: 'python',
  },
  ppl_mode: {
    value: '<mode>',
    help: 'perplexity of loglikelihood_rolling tasks: rolling (lm-eval) | strided (HF sliding windows) | chunked (llama-perplexity)',
    parse: choice(['rolling', 'strided', 'chunked']),
    defaultHelp: 'rolling',
    field: 'perplexity.mode',
  },
  ...PPL_WINDOW_FLAGS,
} satisfies FlagTable;
