/**
 * Runs one program to completion under a wall-clock timeout and output caps. The child is started as
 * the leader of a new process group, and every way of ending it kills the whole group: in bubblewrap
 * that takes the sandbox's PID namespace down with it (--die-with-parent), so nothing it forked survives.
 *
 * Descriptors: 0 is the program's input, 1 and 2 its output (text for the sample log, never a verdict),
 * 3 the seccomp filter bubblewrap reads, 4 the results channel (the checker's verdict, or the io
 * runner's reports). When the program must be placed in a cgroup first, a host shell holds it at a
 * gate on fd 5 until the host has moved it, so that no process of it starts outside the cgroup.
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
  /** A descriptor of the seccomp filter, given to the child as fd 3 (the caller closes it). */
  seccomp?: number;
  /** Places the held child (by pid) before it may run: a cgroup. */
  enter?: (pid: number) => void;
  /**
   * A conversation over stdin and the channel: each line the program writes to fd 4 goes to `reply`,
   * which returns the next line to send, undefined to wait, or null to close stdin. `input` opens it.
   */
  dialogue?: (line: string) => string | null | undefined;
}

/** A run, with what the program wrote to the results channel (fd 4). */
export interface ChannelRunResult extends RunResult {
  channel: string;
}

const GATE = 'read -r _ <&5 && exec "$0" "$@" 5<&-';

export function runProgram(
  plan: SpawnPlan,
  input: string | Buffer,
  options: RunProgramOptions,
): Promise<ChannelRunResult> {
  const started = performance.now();
  const { limits } = options;
  const shell = options.enter ? '/bin/sh' : undefined;
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(shell ?? plan.command, shell ? ['-c', GATE, plan.command, ...plan.args] : plan.args, {
        // Empty environment: no API keys or tokens from the host reach the program.
        env: options.sandboxed ? {} : { PATH: '/usr/bin:/bin', HOME: options.cwd ?? '/tmp', LANG: 'C.UTF-8' },
        cwd: options.cwd ?? '/',
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe', options.seccomp ?? 'ignore', 'pipe', shell ? 'pipe' : 'ignore'],
        uid: plan.uid,
        gid: plan.gid,
      });
    } catch (error) {
      resolve(startFailed(started, (error as Error).message));
      return;
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const channel: Buffer[] = [];
    const sizes = { stdout: 0, stderr: 0, channel: 0 };
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

    const collect = (stream: 'stdout' | 'stderr' | 'channel', into: Buffer[]) => (chunk: Buffer) => {
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
    const extra = child.stdio as unknown as Array<(NodeJS.ReadableStream & NodeJS.WritableStream) | null>;
    extra[4]?.on('data', collect('channel', channel));
    // The program may exit before reading all of its input; that is its own outcome, not ours.
    child.stdin?.on('error', () => {});
    const { dialogue } = options;
    if (dialogue && child.stdin) {
      const stdin = child.stdin;
      let pending = '';
      let open = true;
      stdin.write(input);
      extra[4]?.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        let newline = pending.indexOf('\n');
        while (open && newline >= 0) {
          const next = dialogue(pending.slice(0, newline));
          pending = pending.slice(newline + 1);
          if (next === null) {
            open = false;
            stdin.end();
          } else if (next !== undefined) stdin.write(next);
          newline = pending.indexOf('\n');
        }
      });
    } else {
      child.stdin?.end(input);
    }
    const gate = extra[5];
    if (options.enter && gate && child.pid !== undefined) {
      gate.on('error', () => {});
      try {
        options.enter(child.pid);
        gate.end('\n');
      } catch (error) {
        stderr.push(
          Buffer.from(`assay: cannot place the program in its cgroup: ${(error as Error).message}`),
        );
        ending = 'start_failed';
        killGroup();
      }
    }

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
        channel: Buffer.concat(channel).toString('utf8'),
      });
    });
  });
}

function startFailed(started: number, message: string): ChannelRunResult {
  return {
    channel: '',
    termination: 'start_failed',
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: message,
    truncated: false,
    durationMs: performance.now() - started,
  };
}
