/**
 * The host's side of a checked program (HumanEval, MBPP): the job the trusted checker reads on its stdin,
 * and the one verdict line it writes to fd 4 (checker.py argues why only it can write there).
 * Without a verdict the program did not pass, whatever its exit status.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { AssayError } from '../errors.js';
import { classifyRun, clip } from './outcome.js';
import { sandboxPython, sandboxPythonPath } from './python-sources.js';
import type { ChannelRunResult } from './run-program.js';
import type { CheckedProgram, CodeOutcome, SandboxLimits } from './types.js';

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, number]) => [number, name]));

const compiled = new Map<string, Buffer>();

/** The checker compiled by this interpreter (marshal is version-specific), once per process. */
export function checkerBytecode(python: string): Buffer {
  const known = compiled.get(python);
  if (known) return known;
  const result = spawnSync(python, ['-I', '-S', '-B', sandboxPythonPath('checker_compile')], {
    input: sandboxPython('checker'),
    env: {},
    timeout: 30_000,
    maxBuffer: 16 * 1024 ** 2,
  });
  if (result.error || result.status !== 0 || result.stdout.length === 0) {
    const reason =
      result.error?.message ?? (String(result.stderr).trim().split('\n').pop() || `exit ${result.status}`);
    throw new AssayError('needs_sandbox', `${python} cannot compile the code checker: ${reason}`, {
      exitCode: 1,
    });
  }
  compiled.set(python, result.stdout);
  return result.stdout;
}

export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The checker's stdin after its bytecode: program, nonce, test, prelude, entry point; each a 4-byte length and UTF-8. */
export function checkJob(program: CheckedProgram, nonce: string): Buffer {
  const fields = [program.program, nonce, program.test, program.prelude ?? '', program.entryPoint ?? ''];
  return Buffer.concat(
    fields.flatMap((field) => {
      const bytes = Buffer.from(field, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return [length, bytes];
    }),
  );
}

type VerdictStatus = 'passed' | 'failed' | 'error' | 'signal' | 'internal';
const STATUSES: readonly string[] = ['passed', 'failed', 'error', 'signal', 'internal'];

export interface Verdict {
  status: VerdictStatus;
  message: string;
}

/** The checker's verdict line, when there is one carrying this run's nonce (or none: it failed first). */
export function readVerdict(channel: string, nonce: string): Verdict | undefined {
  const [line] = channel.split('\n');
  const match = /^([0-9a-f]*) ([a-z]+) ([0-9a-f]*)$/.exec(line ?? '');
  if (!match || !STATUSES.includes(match[2])) return undefined;
  const status = match[2] as VerdictStatus;
  // The checker writes an empty nonce only when it failed before reading its job.
  if (match[1] !== nonce && !(status === 'internal' && match[1] === '')) return undefined;
  return { status, message: Buffer.from(match[3], 'hex').toString('utf8') };
}

export function checkOutcome(run: ChannelRunResult, nonce: string, limits: SandboxLimits): CodeOutcome {
  const verdict = readVerdict(run.channel, nonce);
  if (verdict === undefined) {
    const outcome = classifyRun(run, limits);
    if (outcome.status !== 'passed') return outcome;
    // Ended without a verdict: the checker never saw the test return.
    return { status: 'error', message: 'the checker ended without a verdict' };
  }
  switch (verdict.status) {
    case 'passed':
      return { status: 'passed' };
    case 'failed':
    case 'error':
      return { status: verdict.status, message: clip(verdict.message) };
    case 'signal': {
      const signal = SIGNAL_NAMES.get(Number(verdict.message)) ?? `signal ${verdict.message}`;
      if (signal === 'SIGXCPU')
        return { status: 'timed_out', message: `CPU time limit of ${limits.cpuSeconds} s exceeded` };
      return { status: 'error', message: `killed by ${signal}` };
    }
    case 'internal':
      // Not the program's fault: scoring it as failed would silently turn a broken checker into pass@1 = 0.
      throw new AssayError('needs_sandbox', `the code checker failed to start: ${verdict.message}`, {
        exitCode: 1,
      });
  }
}
