/** The option tables of every command but `run` (run-flags.ts). */

import { QUIET_FLAGS, TABLE_FLAGS } from './console-flags.js';
import {
  choice,
  integer,
  keyValues,
  list,
  number,
  port,
  probability,
  switchFlag,
  text,
} from './flag-values.js';
import type { FlagTable } from './option-table.js';
import { shardFlag } from './run-flag-values.js';
import { PPL_WINDOW_FLAGS } from './run-flags.js';

const python = {
  value: '<path>',
  help: 'Python interpreter for tasks with Python functions (as for run)',
  parse: text,
  field: 'python',
};
const includePath = { value: '<dirs...>', help: 'extra task directories', parse: list, field: 'includePath' };
const modelArgs = {
  short: 'a',
  value: '<args>',
  help: 'k=v,k2=v2 or a JSON object, passed to the backend',
  parse: keyValues,
  field: 'modelArgs',
};
const textOrJson = {
  value: '<format>',
  help: 'text | json',
  parse: choice(['text', 'json']),
  default: 'text' as const,
};
const timeoutsAs = (what: string) => ({
  value: '<treatment>',
  help: `what a doc that timed out (over the run's --max_latency_s) counts as when ${what}: wrong | skip (leave it out) | refuse`,
  parse: choice(['wrong', 'skip', 'refuse']),
  default: 'refuse' as const,
  field: 'timeoutsAs',
});
const allowErrors = (what: string) => ({
  help: `${what} runs with errored samples on the docs answered in both (refused otherwise)`,
  parse: switchFlag,
  field: 'allowErrors',
});

export const MERGE_FLAGS = {
  output_path: {
    short: 'o',
    value: '<path>',
    help: 'directory (or .json path) for the merged results, samples and leaderboard_<time>.json',
    parse: text,
    field: 'outputPath',
  },
  tasks: {
    short: 't',
    value: '<tasks...>',
    help: 'task specs to load (default: those the shards recorded)',
    parse: list,
    field: 'tasks',
  },
  include_path: { ...includePath, help: 'task directories (default: those the shards recorded)' },
  python,
  ...QUIET_FLAGS,
  ...TABLE_FLAGS,
} satisfies FlagTable;

export const LS_FLAGS = {
  include_path: includePath,
  overrides: {
    help: 'list the tasks and groups defined in more than one folder (a built-in task an --include_path folder defines again): the one used, the one replaced, and whether their configs differ',
    parse: switchFlag,
  },
} satisfies FlagTable;

export const VALIDATE_FLAGS = {
  tasks: {
    short: 't',
    value: '<tasks...>',
    help: 'tasks to check (default: every task of --include_path)',
    parse: list,
    field: 'tasks',
  },
  include_path: includePath,
  python,
  no_data: { help: 'check configs only: read no dataset (offline)', parse: switchFlag },
  format: { ...textOrJson, help: 'text | json (one record per task, group and tag)' },
} satisfies FlagTable;

export const DATA_FETCH_FLAGS = {
  tasks: {
    short: 't',
    value: '<tasks...>',
    help: 'tasks, groups or tags whose data to fetch',
    parse: list,
    required: true,
  },
  include_path: includePath,
  ...QUIET_FLAGS,
} satisfies FlagTable;

const runTasks = (what: string) => ({
  short: 't',
  value: '<tasks...>',
  help: `tasks or groups to ${what} (default: every task in both runs)`,
  parse: list,
  field: 'tasks',
});
const metric = (what: string) => ({
  value: '<name>',
  help: `metric to ${what} (default: the first metric of each task)`,
  parse: text,
  field: 'metric',
});

export const COMPARE_FLAGS = {
  tasks: runTasks('compare'),
  metric: metric('compare'),
  format: {
    value: '<format>',
    help: 'table | json | markdown',
    parse: choice(['table', 'json', 'markdown']),
    default: 'table' as const,
  },
  adjust: {
    value: '<method>',
    help: 'multiple-comparison adjustment across tasks: holm | bh',
    parse: choice(['holm', 'bh']),
    default: 'holm' as const,
    field: 'adjustment',
  },
  alpha: {
    value: '<level>',
    help: 'significance level of the verdicts',
    parse: probability,
    default: 0.05,
    field: 'alpha',
  },
  seed: {
    value: '<n>',
    help: 'seed of the bootstrap and permutation resampling',
    parse: number,
    default: 0,
    field: 'seed',
  },
  verbose: {
    help: 'after the line per task, every test (paired t, Wilcoxon, permutation, bootstrap), the flips and the per-item correlation, as a table and per row',
    parse: switchFlag,
  },
  allow_errors: allowErrors('compare'),
  timeouts_as: timeoutsAs('comparing'),
} satisfies FlagTable;

export const GATE_FLAGS = {
  baseline: {
    value: '<run>',
    help: 'baseline run (results dir or file with sample logs)',
    parse: text,
    field: 'baseline',
    requiredInHelp: true,
  },
  current: { value: '<run>', help: 'current run', parse: text, field: 'current', requiredInHelp: true },
  max_drop: {
    value: '<delta>',
    help: 'largest tolerated drop, in metric units (0.005 = half a point of accuracy)',
    parse: number,
    field: 'maxDrop',
    requiredInHelp: true,
  },
  tasks: runTasks('gate on'),
  metric: metric('gate on'),
  alpha: {
    value: '<level>',
    help: 'one-sided significance level',
    parse: probability,
    default: 0.05,
    field: 'alpha',
  },
  mode: {
    value: '<mode>',
    help: 'test (non-inferiority test) | threshold (fail if the point estimate drops by more than the margin)',
    parse: choice(['test', 'threshold']),
    default: 'test' as const,
    field: 'mode',
  },
  json: { value: '<file>', help: 'also write the JSON report to this file', parse: text },
  format: { ...textOrJson, help: 'text | json (stdout)' },
  allow_errors: allowErrors('gate'),
  timeouts_as: timeoutsAs('gating'),
  min_judge_agreement: {
    value: '<value>',
    help: 'judge metrics: fail a task whose judge agrees with its labelled slice (judge_labels) below this, or has no slice',
    parse: number,
    field: 'minJudgeAgreement',
  },
  judge_agreement: {
    value: '<statistic>',
    help: 'the agreement --min-judge-agreement reads: cohen_kappa | weighted_kappa | krippendorff_alpha | accuracy',
    parse: choice(['cohen_kappa', 'weighted_kappa', 'krippendorff_alpha', 'accuracy']),
    default: 'cohen_kappa' as const,
    field: 'minJudgeAgreement.statistic',
  },
} satisfies FlagTable;

/** `--baseline 0.72` (an accuracy) or `--baseline runs/a` (a run whose samples give it). */
const accuracyOrRun = (raw: unknown, flag: string): number | string => {
  const shown = String(raw).trim();
  return typeof raw === 'number' || (shown !== '' && Number.isFinite(Number(shown)))
    ? probability(raw, flag)
    : shown;
};

export const POWER_FLAGS = {
  baseline: {
    value: '<accuracy|run>',
    help: "baseline accuracy, e.g. 0.72; or a run (results dir or file with sample logs): each task's accuracy and number of items are read from its samples",
    parse: accuracyOrRun,
    field: 'baseline',
    requiredInHelp: true,
  },
  current: {
    value: '<run>',
    help: 'with --baseline RUN: a second run; the per-item correlation is measured between the two (items paired by doc_hash)',
    parse: text,
  },
  tasks: { ...runTasks('plan for'), help: 'with --baseline RUN: tasks to plan for (default: every task)' },
  metric: metric('read'),
  delta: { value: '<difference>', help: 'difference to detect, e.g. 0.01', parse: number, field: 'delta' },
  n: {
    value: '<items>',
    help: "number of items (gives the minimum detectable effect; with --baseline RUN, default: each task's items)",
    parse: number,
    field: 'n',
  },
  correlation: {
    value: '<rho>',
    help: 'correlation r of per-item correctness between the two models: the higher, the more a paired comparison gains; 0.5 is an assumption (two real runs had r = 0.004), --baseline RUN --current RUN measures it',
    parse: number,
    defaultHelp: '0.5, or measured from --current',
    field: 'correlation',
  },
  alpha: {
    value: '<level>',
    help: 'two-sided significance level',
    parse: probability,
    default: 0.05,
    field: 'alpha',
  },
  power: { value: '<power>', help: 'power', parse: probability, default: 0.8, field: 'power' },
  timeouts_as: timeoutsAs('reading a run'),
  judge_run: {
    value: '<run>',
    help: "a run with llm_judge metrics and judge_labels: how many human labels the PPI++ estimate needs for --half_width (from the variances the run's labelled slice measured)",
    parse: text,
  },
  half_width: {
    value: '<h>',
    help: 'with --judge_run: the target half-width of the PPI++ 95% interval, e.g. 0.02',
    parse: number,
  },
  json: { help: 'print JSON', parse: switchFlag },
} satisfies FlagTable;

export const PPL_FLAGS = {
  model: {
    short: 'M',
    value: '<name>',
    help: 'model backend (strided and chunked need token-level scoring: gguf)',
    parse: text,
    required: true,
    field: 'model',
  },
  model_args: modelArgs,
  text: { value: '<file>', help: 'UTF-8 text file to score', parse: text, required: true },
  ppl_mode: {
    value: '<mode>',
    help: 'rolling | strided | chunked',
    parse: choice(['rolling', 'strided', 'chunked']),
    default: 'rolling' as const,
    field: 'perplexity.mode',
  },
  ...PPL_WINDOW_FLAGS,
  format: textOrJson,
  output_path: {
    short: 'o',
    value: '<file>',
    help: 'also write the JSON report to this file',
    parse: text,
    field: 'outputPath',
  },
} satisfies FlagTable;

export const SERVE_FLAGS = {
  model: {
    short: 'm',
    value: '<file>',
    help: 'GGUF file (default: the built-in demo model)',
    parse: text,
  },
  model_args: {
    ...modelArgs,
    help: 'gguf model args: n_ctx=…,threads=…,batch_size=…,scorer=auto|native|map',
  },
  host: {
    value: '<host>',
    help: 'address to bind (anything but loopback exposes the model)',
    parse: text,
    default: '127.0.0.1',
    field: 'host',
  },
  port: {
    value: '<n>',
    help: 'port to listen on (0 picks a free one)',
    parse: port,
    default: 8000,
    field: 'port',
  },
  concurrency: {
    value: '<n>',
    help: 'requests using the engine at once',
    parse: integer(1),
    default: 4,
    field: 'concurrency',
  },
  queue: {
    value: '<n>',
    help: 'requests waiting beyond that before 429',
    parse: integer(0),
    default: 256,
    field: 'queue',
  },
  served_model_name: {
    value: '<name>',
    help: 'the model id clients send (default: the file name without .gguf)',
    parse: text,
    field: 'name',
  },
} satisfies FlagTable;

export const KLD_FLAGS = {
  base: {
    value: '<file>',
    help: 'the reference GGUF (e.g. F16)',
    parse: text,
    required: true,
    field: 'basePath',
  },
  model: {
    short: 'm',
    value: '<file>',
    help: 'the GGUF to check (e.g. a quantization of the base)',
    parse: text,
    required: true,
    field: 'modelPath',
  },
  text: { value: '<file>', help: 'UTF-8 text file to score', parse: text },
  tasks: {
    short: 't',
    value: '<name>',
    help: 'a perplexity task whose documents form the text (e.g. wikitext)',
    parse: text,
  },
  include_path: { value: '<dir>', help: 'extra task folder for --tasks', parse: text },
  limit: { value: '<n>', help: 'with --tasks: first N documents', parse: integer(1) },
  n_ctx: {
    short: 'c',
    value: '<tokens>',
    help: 'chunk size in tokens (llama-perplexity -c)',
    parse: integer(4),
    default: 512,
    field: 'nCtx',
  },
  threads: {
    value: '<n>',
    help: 'CPU threads (default: all cores; 1 for tiny models)',
    parse: integer(1),
    field: 'threads',
  },
  format: textOrJson,
  output_path: { short: 'o', value: '<file>', help: 'also write the JSON report to this file', parse: text },
} satisfies FlagTable;

export const EXPORT_FLAGS = {
  to: {
    value: '<target>',
    help: 'mlflow | hub | wandb (wandb is refused: see docs/export.md)',
    parse: text,
    required: true,
    field: 'to',
  },
  experiment_name: {
    value: '<name>',
    help: 'mlflow: experiment, got or created (default: MLFLOW_EXPERIMENT_NAME, else Default)',
    parse: text,
    field: 'experimentName',
  },
  run_name: {
    value: '<name>',
    help: 'mlflow: run name (default: "<model> <time>")',
    parse: text,
    field: 'runName',
  },
  no_artifacts: {
    help: 'mlflow: log params, metrics and tags only, no files',
    parse: switchFlag,
    field: 'artifacts: false',
  },
  hf_hub_log_args: {
    value: '<args>',
    help: "hub: lm-eval's keys, e.g. hub_results_org=ORG,details_repo_name=NAME,push_results_to_hub=True,push_samples_to_hub=True,public_repo=False",
    parse: keyValues,
  },
  wandb_args: {
    value: '<args>',
    help: 'refused: Weights & Biases export is not supported',
    parse: keyValues,
  },
  ...QUIET_FLAGS,
} satisfies FlagTable;

export const VIEW_FLAGS = {
  port: {
    value: '<n>',
    help: 'port to listen on (0 picks a free one)',
    parse: port,
    default: 8711,
    field: 'port',
  },
  host: {
    value: '<host>',
    help: 'address to bind (anything but loopback exposes the results)',
    parse: text,
    default: '127.0.0.1',
    field: 'host',
  },
  export: {
    value: '<dir>',
    help: 'write a static copy of the viewer and its data to this directory, then exit',
    parse: text,
    field: 'outDirectory',
  },
} satisfies FlagTable;

const suitesDirectory = {
  value: '<dir>',
  help: 'the folder holding the suites (suites/NAME/)',
  parse: text,
  default: 'suites',
  field: 'suitesDirectory',
};

export const SUITE_VALIDATE_FLAGS = {
  format: { ...textOrJson, help: 'text | json (the cells, task sets and groups)' },
} satisfies FlagTable;

export const SUITE_RUN_FLAGS = {
  suite: {
    value: '<name>',
    help: "the suite's name: its folder under --suites_dir, where every cell writes its run",
    parse: text,
    required: true,
    field: 'suiteName',
  },
  suites_dir: suitesDirectory,
  models_to_run: {
    value: '<models...>',
    help: 'run only these models (their names in the suite file)',
    parse: list,
    field: 'modelsToRun',
  },
  tasks_to_run: {
    value: '<task_sets...>',
    help: 'run only these task sets (their names in the suite file)',
    parse: list,
    field: 'tasksToRun',
  },
  shard: {
    value: '<i/N|auto>',
    help: 'run the i-th of N parts of the cells (whole cells; with fewer cells than shards, a doc slice of one) into suites/NAME/shards/i-of-N/ (auto, auto/N: from a Slurm array or a Kubernetes Indexed Job); assay suite merge NAME assembles them',
    parse: shardFlag(),
    field: 'shard',
  },
  ...QUIET_FLAGS,
} satisfies FlagTable;

export const SUITE_MERGE_FLAGS = {
  suites_dir: suitesDirectory,
  quiet: { help: 'print nothing but errors', parse: switchFlag },
} satisfies FlagTable;

export const SUITE_SUMMARIZE_FLAGS = {
  suites_dir: suitesDirectory,
  bootstrap_iters: {
    value: '<n>',
    help: 'joint bootstrap draws over docs for the rank and win-rate intervals',
    parse: integer(100),
    default: 2000,
    field: 'bootstrapIterations',
  },
  seed: {
    value: '<n>',
    help: 'seed of the bootstrap resampling',
    parse: integer(0),
    default: 0,
    field: 'seed',
  },
  quiet: { help: 'print nothing but errors (the files are written)', parse: switchFlag },
} satisfies FlagTable;

export const SUITE_DIFF_FLAGS = {
  suites_dir: suitesDirectory,
  format: { ...textOrJson, help: 'text | json (every compared score, moved or not)' },
  seed: {
    value: '<n>',
    help: 'seed of the permutation test for scores that are not 0/1',
    parse: integer(0),
    default: 0,
    field: 'seed',
  },
} satisfies FlagTable;

export const COMMAND_FLAGS = {
  merge: MERGE_FLAGS,
  ls: LS_FLAGS,
  validate: VALIDATE_FLAGS,
  'data fetch': DATA_FETCH_FLAGS,
  compare: COMPARE_FLAGS,
  gate: GATE_FLAGS,
  power: POWER_FLAGS,
  ppl: PPL_FLAGS,
  serve: SERVE_FLAGS,
  kld: KLD_FLAGS,
  export: EXPORT_FLAGS,
  view: VIEW_FLAGS,
  'suite validate': SUITE_VALIDATE_FLAGS,
  'suite run': SUITE_RUN_FLAGS,
  'suite summarize': SUITE_SUMMARIZE_FLAGS,
  'suite diff': SUITE_DIFF_FLAGS,
  'suite merge': SUITE_MERGE_FLAGS,
} as const;
