/**
 * The one error base class. Every error a user can cause carries a stable `code` and, where known,
 * the location that caused it (file:line:col, task, doc id, field). The CLI turns these into a one-line
 * message and exit code 2; anything else is a bug and exits 1.
 */
export type ErrorCode =
  | 'yaml_syntax'
  | 'unknown_field'
  | 'invalid_config'
  | 'template_error'
  | 'unknown_metric'
  | 'unknown_filter'
  | 'unknown_output_type'
  | 'unknown_aggregation'
  | 'missing_data_file'
  | 'bad_data'
  | 'bad_jsonl_line'
  | 'bad_limit'
  | 'bad_argument'
  | 'unknown_task'
  | 'unknown_model'
  | 'include_cycle'
  | 'function_not_found'
  | 'capability_missing'
  | 'needs_sandbox'
  | 'backend_error'
  | 'bad_model_file'
  | 'duplicate_task'
  | 'hub_error'
  | 'export_error'
  | 'needs_python'
  | 'python_package_missing'
  | 'python_error'
  | 'sha256_mismatch';

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
