/**
 * The code sandbox: a pool that runs each program in its own bubblewrap (or, when the user opted out,
 * rlimits-only) child process, at most `workers` at a time. A child process per program is the
 * isolation unit; the pool only bounds concurrency, so one program can never see another's state.
 */
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { bubblewrapPlan, findExecutable, NOBODY, probeSandbox, rlimitsOnlyPlan } from './bubblewrap.js';
import { runProgram } from './run-program.js';
import {
  DEFAULT_LIMITS,
  type IsolationMode,
  type Program,
  type RunResult,
  type SandboxLimits,
  type SandboxOptions,
} from './types.js';

export interface CreateSandboxOptions {
  /** Run with rlimits only when bubblewrap is unavailable or unwanted: the program can reach the host. */
  unsafeWithoutSandbox?: boolean;
  limits?: Partial<SandboxLimits>;
  workers?: number;
  python?: string;
  node?: string;
  bwrap?: string;
}

/** What the manifest records about how model-written code was run. */
export interface SandboxDescription {
  isolation: IsolationMode;
  /** Set when programs ran without bubblewrap, in words a reader of the manifest cannot miss. */
  warning: string | null;
  limits: SandboxLimits;
  workers: number;
  python: string;
  node: string;
}

export const UNSAFE_WARNING =
  'UNSAFE: model-written code ran WITHOUT a sandbox (--unsafe_code_without_sandbox): rlimits only, with access to the host filesystem and network';

export function sandboxOptions(options: CreateSandboxOptions = {}): SandboxOptions {
  return {
    mode: options.unsafeWithoutSandbox ? 'rlimits_only' : 'bubblewrap',
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    workers: Math.max(1, options.workers ?? os.availableParallelism()),
    python: options.python ?? findExecutable('python3') ?? 'python3',
    node: options.node ?? process.execPath,
    ...(options.bwrap ? { bwrap: options.bwrap } : {}),
  };
}

export class CodeSandbox {
  readonly options: SandboxOptions;
  private readonly bwrap?: string;
  private readonly prlimit: string;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  private constructor(options: SandboxOptions, prlimit: string, bwrap?: string) {
    this.options = options;
    this.prlimit = prlimit;
    this.bwrap = bwrap;
  }

  /** Refuses, with the reason, when bubblewrap cannot start and the user did not opt out of it. */
  static create(options: CreateSandboxOptions = {}): CodeSandbox {
    const resolved = sandboxOptions(options);
    if (resolved.mode === 'rlimits_only') {
      const prlimit = findExecutable('prlimit');
      if (!prlimit)
        throw new AssayError(
          'needs_sandbox',
          'running code needs prlimit (util-linux), which is not installed',
        );
      return new CodeSandbox(resolved, prlimit);
    }
    const probe = probeSandbox(resolved);
    if (!probe.available) {
      throw new AssayError(
        'needs_sandbox',
        `cannot run model-written code: the sandbox is unavailable: ${probe.reason}. Install bubblewrap, or pass --unsafe_code_without_sandbox to run it with rlimits only (unsafe: it can read and change your files and reach the network)`,
      );
    }
    return new CodeSandbox(resolved, probe.prlimit, probe.bwrap);
  }

  describe(): SandboxDescription {
    return {
      isolation: this.options.mode,
      warning: this.options.mode === 'rlimits_only' ? UNSAFE_WARNING : null,
      limits: this.options.limits,
      workers: this.options.workers,
      python: this.options.python,
      node: this.options.node,
    };
  }

  /** Runs one program in a fresh sandbox once a worker slot is free. */
  async run(program: Program): Promise<RunResult> {
    await this.acquire();
    try {
      return await this.runNow(program);
    } finally {
      this.release();
    }
  }

  private async runNow(program: Program): Promise<RunResult> {
    const { limits } = this.options;
    if (this.bwrap) {
      return runProgram(
        bubblewrapPlan(this.bwrap, this.prlimit, program.language, this.options),
        program.source,
        {
          limits,
          sandboxed: true,
        },
      );
    }
    const plan = rlimitsOnlyPlan(this.prlimit, program.language, this.options);
    // A fresh working directory per program, owned by the identity it runs as.
    const directory = mkdtempSync(path.join(os.tmpdir(), 'assay-code-'));
    try {
      if (plan.uid !== undefined) chownSync(directory, plan.uid, plan.gid ?? NOBODY);
      chmodSync(directory, 0o700);
      return await runProgram(plan, program.source, { limits, sandboxed: false, cwd: directory });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.options.workers) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
