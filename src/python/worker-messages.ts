/**
 * What the Python worker (worker-process.ts) reports, apart from the process itself: its interpreter's
 * description, a Python exception, and the errors a call ends in. The runtime every task loader holds
 * (python-runtime.ts) reads these and loads the worker's process code only when it starts one.
 */
import { AssayError } from '../errors.js';

/** What the worker reports about its interpreter when it starts (the manifest records it). */
export interface PythonInfo {
  /** sys.executable */
  python: string;
  version: string;
  implementation: string;
  /** Versions of the packages task code most often needs; null when not importable (a stand-in is used). */
  packages: {
    datasets: string | null;
    numpy: string | null;
    lm_eval: string | null;
    evaluate: string | null;
  };
  /** Packages served by assay's stand-ins (datasets, lm_eval) because the interpreter lacks them. */
  stand_ins: string[];
}

/** A Python exception, as the worker reports it. */
export interface PythonFailure {
  type: string;
  message: string;
  /** The innermost frame of task code: `file:line in function: source`. */
  frame: string | null;
  traceback: string;
  /** For ImportError: the module that could not be imported. */
  missing?: string;
  /** The package a function can reach only through a placeholder (it is not installed): load refused. */
  needs?: string;
  /** For batched calls: the position in the batch that raised. */
  index?: number;
  /**
   * The function returned a value that cannot be scored (NaN, a metric missing) instead of raising:
   * `frame` is then its definition, and `message` says what it returned.
   */
  returned?: boolean;
  /** For several calls in one request (doc functions): which call raised. */
  call?: number;
  /** For Dataset.map/filter in the stand-in: the row being processed. */
  row?: number;
}

/**
 * A request the worker never answered because it exited (or broke the protocol). `at` is the position of
 * the function a `load` request was importing, when the worker had said which.
 */
export class WorkerExitError extends Error {
  constructor(
    message: string,
    readonly at?: number,
  ) {
    super(message);
    this.name = 'WorkerExitError';
  }
}

/** Thrown for a request the worker answered with an exception. */
export class PythonCallError extends Error {
  constructor(readonly failure: PythonFailure) {
    super(`${failure.type}: ${failure.message}`);
    this.name = 'PythonCallError';
  }
}

/** The error for a worker that could not start at all (not Python, too old, or no worker script). */
export function startError(python: string, error: unknown): AssayError {
  return new AssayError(
    'needs_python',
    `cannot start the Python interpreter ${python}: ${(error as Error).message}; give a working one with \`python\` PATH (or ASSAY_PYTHON)`,
    { cause: error },
  );
}
