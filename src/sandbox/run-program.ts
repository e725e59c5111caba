/**
 * Runs one program to completion under a wall-clock timeout and output caps. The child is started as
 * the leader of a new process group, and every way of ending it kills the whole group: in bubblewrap
 * that takes the sandbox's PID namespace down with it (--die-with-parent), so nothing it forked survives.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { SpawnPlan } from './bubblewrap.js';
import type { RunResult, SandboxLimits, Termination } from './types.js';

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, number]) => [number, name]));

export interface RunProgramOptions {
  limits: SandboxLimits;
  /** bwrap reports its own setup failures with exit 1 and a `bwrap:` line; those are start failures. */
  sandboxed: boolean;
  /** Working directory for rlimits-only runs (bubblewrap uses its private /tmp). */
  cwd?: string;
}

export function runProgram(plan: SpawnPlan, source: string, options: RunProgramOptions): Promise<RunResult> {
  const started = performance.now();
  const { limits } = options;
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(plan.command, plan.args, {
        // Empty environment: no API keys or tokens from the host reach the program.
        env: options.sandboxed ? {} : { PATH: '/usr/bin:/bin', HOME: options.cwd ?? '/tmp', LANG: 'C.UTF-8' },
        cwd: options.cwd ?? '/',
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        uid: plan.uid,
        gid: plan.gid,
      });
    } catch (error) {
      resolve(startFailed(started, (error as Error).message));
      return;
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const sizes = { stdout: 0, stderr: 0 };
    let truncated = false;
    let ending: Termination | undefined;
    let finished = false;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const stop = (why: Termination): void => {
      if (ending === undefined) ending = why;
      killGroup();
    };
    const timer = setTimeout(() => stop('timed_out'), limits.timeoutMs);

    const collect = (stream: 'stdout' | 'stderr', into: Buffer[]) => (chunk: Buffer) => {
      const room = limits.outputBytes - sizes[stream];
      if (chunk.length > room) {
        into.push(chunk.subarray(0, room));
        sizes[stream] = limits.outputBytes;
        truncated = true;
        stop('output_limit');
        return;
      }
      into.push(chunk);
      sizes[stream] += chunk.length;
    };
    child.stdout?.on('data', collect('stdout', stdout));
    child.stderr?.on('data', collect('stderr', stderr));
    // The program may exit before reading all of its source; that is its own outcome, not ours.
    child.stdin?.on('error', () => {});
    child.stdin?.end(source);

    child.on('error', (error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      killGroup();
      resolve(startFailed(started, error.message));
    });
    child.on('close', (code, signal) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // Anything the program left behind in its group goes too (rlimits-only runs have no PID namespace).
      killGroup();
      const err = Buffer.concat(stderr).toString('utf8');
      let termination: Termination = ending ?? (signal ? 'signaled' : 'exited');
      let signalName: string | null = signal ?? null;
      let exitCode = code;
      if (termination === 'exited' && options.sandboxed && code !== null) {
        if (code === 1 && /^bwrap: /m.test(err) && !err.includes('Traceback')) termination = 'start_failed';
        else if (code > 128 && SIGNAL_NAMES.has(code - 128)) {
          // bwrap's init exits 128+n when the program dies of signal n.
          termination = 'signaled';
          signalName = SIGNAL_NAMES.get(code - 128) ?? null;
          exitCode = null;
        }
      }
      resolve({
        termination,
        exitCode,
        signal: signalName,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: err,
        truncated,
        durationMs: performance.now() - started,
      });
    });
  });
}

function startFailed(started: number, message: string): RunResult {
  return {
    termination: 'start_failed',
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: message,
    truncated: false,
    durationMs: performance.now() - started,
  };
}
