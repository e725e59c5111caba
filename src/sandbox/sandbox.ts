/**
 * The code sandbox: a pool that runs each program in its own bubblewrap (or, when the user opted out,
 * rlimits-only) child process, at most `workers` at a time. A child process per program is the
 * isolation unit; the pool only bounds concurrency, so one program can never see another's state.
 *
 * Three ways to run: `check` (a checked program: the verdict comes from the trusted checker, see
 * python-checker.ts), `runIo` (f called on inputs; the outputs are judged outside, see io-tests.ts) and
 * `run` (a program as it is, judged by nothing: for tests and benchmarks).
 */
import { chmodSync, chownSync, closeSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AssayError } from '../errors.js';
import {
  bubblewrapPlan,
  filterFor,
  findExecutable,
  NOBODY,
  probeSandbox,
  type RunSpec,
  rlimitsOnlyPlan,
} from './bubblewrap.js';
import { CgroupTree } from './cgroup.js';
import { checkerBytecode, checkJob, checkOutcome, newNonce } from './check.js';
import { type IoAnswers, IoDialogue } from './io-tests.js';
import { describeMemoryPlan, type MemoryMechanism, type MemoryPlan, memoryPlan } from './memory.js';
import { type ChannelRunResult, runProgram } from './run-program.js';
import { seccompDescriptor } from './seccomp.js';
import {
  type CheckedProgram,
  type CodeOutcome,
  DEFAULT_LIMITS,
  type IoProgram,
  type IsolationMode,
  MIN_MEMORY_BYTES,
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
  /** Try a cgroup v2 subtree for the memory bound (default); false holds it with RLIMIT_AS alone. */
  cgroup?: boolean;
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
  /** The per-program memory bound, the mechanism that held it, and why that one. */
  memory: { bound_bytes: number; mechanism: MemoryMechanism; detail: string };
  /** Where verdicts come from. */
  verdicts: string;
}

export const UNSAFE_WARNING =
  'UNSAFE: model-written code ran WITHOUT a sandbox (`unsafeCodeWithoutSandbox`): rlimits only, with access to the host filesystem and network';

const VERDICTS =
  'checked programs (HumanEval, MBPP): the test runs in a trusted checker process that the program cannot reach, and passes only when it returns; code_exec: the outputs are compared outside the sandbox, whose program never sees the expected values';

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
  readonly memory: MemoryPlan;
  private readonly bwrap?: string;
  private readonly prlimit: string;
  private readonly masked: string[];
  private readonly cgroup?: CgroupTree;
  private readonly memoryDetail: string;
  private readonly free: number[];
  private readonly waiting: Array<(slot: number) => void> = [];

  private constructor(
    options: SandboxOptions,
    prlimit: string,
    setup: { bwrap?: string; masked: string[]; cgroup: CgroupTree | { reason: string } | undefined },
  ) {
    this.options = options;
    this.prlimit = prlimit;
    this.bwrap = setup.bwrap;
    this.masked = setup.masked;
    this.cgroup = setup.cgroup instanceof CgroupTree ? setup.cgroup : undefined;
    this.memory = memoryPlan(options.limits, this.cgroup ? 'cgroup_v2' : 'rlimit_as');
    const why =
      setup.cgroup && !(setup.cgroup instanceof CgroupTree) ? ` (cgroup v2: ${setup.cgroup.reason})` : '';
    this.memoryDetail =
      options.mode === 'rlimits_only' && !this.cgroup
        ? `RLIMIT_AS of ${Math.round(this.memory.programAs / 1024 ** 2)} MiB per process only: without the sandbox's seccomp filter a program can start processes, so nothing bounds them together${why}`
        : `${describeMemoryPlan(this.memory, this.cgroup?.root)}${why}`;
    this.free = Array.from({ length: options.workers }, (_, slot) => slot);
  }

  /** Refuses, with the reason, when bubblewrap cannot start and the user did not opt out of it. */
  static create(options: CreateSandboxOptions = {}): CodeSandbox {
    const resolved = sandboxOptions(options);
    const { memoryBytes, processes } = resolved.limits;
    if (!Number.isFinite(memoryBytes) || memoryBytes < MIN_MEMORY_BYTES) {
      throw new AssayError(
        'bad_option',
        `the code memory bound must be at least ${MIN_MEMORY_BYTES / 1024 ** 3} GiB (Node needs about 800 MiB of address space to start); got ${memoryBytes} bytes`,
        { location: { field: 'limits.memoryBytes' } },
      );
    }
    const cgroup =
      options.cgroup === false ? undefined : CgroupTree.create(resolved.workers, { memoryBytes, processes });
    if (resolved.mode === 'rlimits_only') {
      const prlimit = findExecutable('prlimit');
      if (!prlimit)
        throw new AssayError(
          'needs_sandbox',
          'running code needs prlimit (util-linux), which is not installed',
        );
      return new CodeSandbox(resolved, prlimit, { masked: [], cgroup });
    }
    const probe = probeSandbox(resolved);
    if (!probe.available) {
      if (cgroup instanceof CgroupTree) cgroup.close();
      throw new AssayError(
        'needs_sandbox',
        `cannot run model-written code: the sandbox is unavailable: ${probe.reason}. Install bubblewrap, or pass \`unsafeCodeWithoutSandbox\` to run it with rlimits only (unsafe: it can read and change your files and reach the network)`,
      );
    }
    return new CodeSandbox(resolved, probe.prlimit, { bwrap: probe.bwrap, masked: probe.masked, cgroup });
  }

  describe(): SandboxDescription {
    return {
      isolation: this.options.mode,
      warning: this.options.mode === 'rlimits_only' ? UNSAFE_WARNING : null,
      limits: this.options.limits,
      workers: this.options.workers,
      python: this.options.python,
      node: this.options.node,
      memory: {
        bound_bytes: this.memory.boundBytes,
        mechanism: this.memory.mechanism,
        detail: this.memoryDetail,
      },
      verdicts: VERDICTS,
    };
  }

  /** A checked program (HumanEval, MBPP): passed only when the trusted checker saw its test return. */
  async check(program: CheckedProgram): Promise<CodeOutcome> {
    const nonce = newNonce();
    const code = checkerBytecode(this.options.python);
    const input = Buffer.concat([code, checkJob(program, nonce)]);
    const run = await this.execute({ kind: 'check', language: 'python', checkerBytes: code.length }, input);
    return checkOutcome(run, nonce, this.options.limits);
  }

  /** f called on each input, one at a time; the answers are judged outside (io-tests.ts). */
  async runIo(program: IoProgram): Promise<ChannelRunResult & { answered: IoAnswers }> {
    const dialogue = new IoDialogue(program);
    const run = await this.execute({ kind: 'io', language: program.language }, dialogue.opening(), (line) =>
      dialogue.reply(line),
    );
    return { ...run, answered: dialogue.result() };
  }

  /** Runs one program as it is, in a fresh sandbox: its exit status is no verdict. */
  run(program: Program): Promise<RunResult> {
    return this.execute({ kind: 'raw', language: program.language }, program.source);
  }

  /** Removes the cgroup subtree, if one was made. */
  close(): void {
    this.cgroup?.close();
  }

  private async execute(
    spec: RunSpec,
    input: string | Buffer,
    dialogue?: (line: string) => string | null | undefined,
  ): Promise<ChannelRunResult> {
    const slot = await this.acquire();
    try {
      return await this.runInSlot(slot, spec, input, dialogue);
    } finally {
      this.cgroup?.clear(slot);
      this.release(slot);
    }
  }

  private async runInSlot(
    slot: number,
    spec: RunSpec,
    input: string | Buffer,
    dialogue?: (line: string) => string | null | undefined,
  ): Promise<ChannelRunResult> {
    const { limits } = this.options;
    const cgroup = this.cgroup;
    const enter = cgroup ? (pid: number) => cgroup.enter(slot, pid) : undefined;
    if (this.bwrap) {
      const seccomp = seccompDescriptor(filterFor(spec.kind));
      try {
        const plan = bubblewrapPlan(this.bwrap, this.prlimit, spec, this.options, this.memory, this.masked);
        return await runProgram(plan, input, { limits, sandboxed: true, seccomp, enter, dialogue });
      } finally {
        closeSync(seccomp);
      }
    }
    const plan = rlimitsOnlyPlan(this.prlimit, spec, this.options, this.memory);
    // A fresh working directory per program, owned by the identity it runs as.
    const directory = mkdtempSync(path.join(os.tmpdir(), 'assay-code-'));
    try {
      if (plan.uid !== undefined) chownSync(directory, plan.uid, plan.gid ?? NOBODY);
      chmodSync(directory, 0o700);
      return await runProgram(plan, input, { limits, sandboxed: false, cwd: directory, enter, dialogue });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }

  private acquire(): Promise<number> {
    const slot = this.free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(slot: number): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.free.push(slot);
  }
}
