/**
 * The one error base class. Every error a user can cause carries a stable `code` and, where known,
 * the location that caused it (file:line:col, task, doc id, field). The CLI turns these into a one-line
 * message and exit code 2; anything else is a bug and exits 1.
 *
 * The codes are public API (docs/library.md lists them): code that handles an AssayError branches on
 * `code` (and `location`), never on the message, whose wording may change.
 */
export const ERROR_CODES = {
  // Options and arguments
  bad_option:
    'an option or argument of a library function (or the CLI flag that sets it) has a bad value, is missing, or conflicts with another',
  bad_model_args: "a backend's model args: an unknown name, a bad value or a missing required one",
  unknown_model: 'no backend has this name',
  not_supported:
    'something lm-eval (or a format) has that assay deliberately does not do; the message names what to use instead',
  needs_confirmation:
    'an action that needs explicit consent, such as running model-written code (`confirmRunUnsafeCode`)',
  missing_credentials: 'an API key or token the operation needs is not set',
  bad_environment: 'an environment variable has a bad value, or one the operation needs is unset',
  // Files, folders and runs
  not_found: 'a file, folder, run, tokenizer or record that was named does not exist',
  io_error:
    'a path exists but cannot be read, written or used as asked (permissions, a file where a folder is needed, a port in use)',
  missing_sample_logs: 'a run lacks the sample logs (`logSamples`) the operation needs',
  incompatible_runs: 'runs or shards that cannot be compared, gated or merged together',
  incompatible_models: 'two models that cannot be compared (different vocabularies)',
  bad_jsonl_line: 'a line of a JSONL file (task or sample log) is not valid',
  // Tasks
  yaml_syntax: 'a YAML file does not parse',
  unknown_field: 'a task or group config has a key lm-eval does not define',
  invalid_config: 'a task or group config has a bad value',
  include_cycle: 'task configs include each other in a cycle',
  duplicate_task: 'the same task is selected twice',
  unknown_task: 'no task, group or tag has this name',
  function_not_found: 'a `!function` reference names nothing that exists',
  template_error: 'a prompt template does not parse or fails to render',
  unknown_metric: 'no metric has this name',
  unknown_filter: 'no filter has this name',
  unknown_output_type: 'a task config names an output type lm-eval does not define',
  unknown_aggregation: 'no aggregation has this name',
  bad_regex: 'a Python regex assay cannot compile, or uses a feature it does not support',
  integrity_check_failed: 'a task failed the checks `checkIntegrity` runs before a run',
  sha256_mismatch:
    "a task's content (config and data files) does not hash to the sha256 pinned for it (`expectSha256`)",
  // Data and models
  missing_data_file: 'a data file a task names does not exist',
  bad_data: "a dataset's rows (or a text to score) are not what the task needs",
  hub_error: 'the Hugging Face Hub refused or failed a request',
  bad_model_file: 'a model file is not a usable GGUF',
  capability_missing: 'the backend does not declare a capability the run needs',
  backend_error: 'the backend failed or answered something that cannot be right',
  scoring_error: 'a metric, aggregation or filter got values it cannot score',
  // Code, Python and export
  needs_sandbox: 'model-written code cannot run because the sandbox cannot start',
  needs_python: 'a task needs a Python interpreter (or a module) that is not available',
  python_package_missing:
    'Python task code needs a third-party package the interpreter does not have; the message names the package and the interpreter',
  python_error: 'Python task code raised an error',
  export_error: 'a tracking server (MLflow, the Hub) refused or failed an export',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
  task?: string;
  docId?: number | string;
  field?: string;
}

export class AssayError extends Error {
  readonly code: ErrorCode;
  readonly location: ErrorLocation;
  /** Exit code the CLI uses: 2 for bad input (the default), 1 for a failed run. */
  readonly exitCode: number;

  constructor(
    code: ErrorCode,
    message: string,
    options: { location?: ErrorLocation; cause?: unknown; exitCode?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AssayError';
    this.code = code;
    this.location = options.location ?? {};
    this.exitCode = options.exitCode ?? 2;
  }

  /** `file:line:col: message` (or the message alone when no file is known). */
  format(): string {
    const { file, line, column, task, docId, field } = this.location;
    const where: string[] = [];
    if (file) where.push([file, line, column].filter((part) => part !== undefined).join(':'));
    const context: string[] = [];
    if (task !== undefined && !this.message.includes(task)) context.push(`task ${task}`);
    if (docId !== undefined && !this.message.includes(`doc ${docId}`)) context.push(`doc ${docId}`);
    if (field !== undefined && !this.message.includes(field)) context.push(`field ${field}`);
    const suffix = context.length ? ` (${context.join(', ')})` : '';
    return `${where.length ? `${where[0]}: ` : ''}${this.message}${suffix}`;
  }
}

/** Levenshtein-closest candidates, for "did you mean" messages. */
export function closestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const scored: Array<[number, string]> = [];
  for (const candidate of candidates)
    scored.push([editDistance(name.toLowerCase(), candidate.toLowerCase()), candidate]);
  scored.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  const limit = Math.max(2, Math.ceil(name.length / 2));
  return scored
    .filter(([distance]) => distance <= limit)
    .slice(0, max)
    .map(([, candidate]) => candidate);
}

export function editDistance(a: string, b: string): number {
  const previous = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j];
      previous[j] = Math.min(
        previous[j] + 1,
        previous[j - 1] + 1,
        diagonal + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diagonal = above;
    }
  }
  return previous[b.length];
}

/** A file that could not be read: `not_found` when it does not exist, else `io_error`. */
export function readError(what: string, file: string, cause: unknown): AssayError {
  const code = (cause as { code?: unknown } | undefined)?.code;
  return new AssayError(
    code === 'ENOENT' || code === 'ENOTDIR' ? 'not_found' : 'io_error',
    `${what}: cannot read ${file}`,
    { cause },
  );
}
