import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { AssayError } from '../../errors.js';
import { guardGroup, isGroupAlive, releaseGroup } from './process-guard.js';

/**
 * One inference server process assay started (`vllm serve …`, `python -m sglang.launch_server …`): its
 * own process group (so that stopping it stops its workers too), its output appended to a log file, and a
 * wait for its health endpoint bounded by a time limit. It is stopped by `stop()`, and by the process
 * guard if assay exits first.
 */
export interface StartOptions {
  /** What the messages call it: `vllm serve`. */
  label: string;
  executable: string;
  args: string[];
  logFile: string;
  /** The server's root URL, e.g. http://127.0.0.1:PORT. */
  url: string;
  healthPath: string;
  timeoutMs: number;
  /** Called about once a second while waiting, with the seconds waited. */
  onWait?: (seconds: number) => void;
  env?: NodeJS.ProcessEnv;
  /** Between health polls. */
  pollMs?: number;
}

/** A free TCP port on the loopback interface (the kernel picks it; the server binds it right after). */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The last `count` lines of a log file, for error messages. */
export function logTail(file: string, count = 20): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return '(no log)';
  }
  const lines = text.trimEnd().split('\n');
  return lines.slice(-count).join('\n');
}

export class ServerProcess {
  readonly pid: number;
  /** Resolves when the server process exits, with how. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exitState?: { code: number | null; signal: NodeJS.Signals | null };
  private stopping = false;

  private constructor(
    child: ChildProcess,
    readonly options: StartOptions,
  ) {
    this.pid = child.pid as number;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitState = { code, signal };
        resolve(this.exitState);
      });
    });
  }

  /** Spawns the server and waits until its health endpoint answers 200. */
  static async start(options: StartOptions): Promise<ServerProcess> {
    const log = openSync(options.logFile, 'a');
    const commandLine = [options.executable, ...options.args].map(quote).join(' ');
    let child: ChildProcess;
    try {
      child = spawn(options.executable, options.args, {
        detached: true,
        stdio: ['ignore', log, log],
        env: { ...process.env, ...options.env },
      });
    } finally {
      // The child holds its own copy of the descriptor.
      closeSync(log);
    }
    const spawned = await new Promise<Error | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', resolve);
    });
    if (spawned) {
      const missing = (spawned as NodeJS.ErrnoException).code === 'ENOENT';
      throw new AssayError(
        'backend_error',
        missing
          ? `${options.label}: ${options.executable} is not on PATH (or not executable); install it, or give its path with \`modelArgs\` ${options.label.startsWith('vllm') ? 'executable' : 'python'}=PATH`
          : `${options.label}: cannot start ${options.executable}: ${spawned.message}`,
        { exitCode: 1, cause: spawned },
      );
    }
    const server = new ServerProcess(child, options);
    guardGroup(server.pid);
    const header = openSync(options.logFile, 'a');
    writeSync(header, `# assay started pid ${server.pid} (process group ${server.pid}): ${commandLine}\n`);
    closeSync(header);
    try {
      await server.waitHealthy();
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  get running(): boolean {
    return this.exitState === undefined;
  }

  /** How it ended, for messages: `exited with code 1`, `was killed by SIGKILL`. */
  exitDescription(): string {
    const state = this.exitState;
    if (!state) return 'is running';
    return state.signal ? `was killed by ${state.signal}` : `exited with code ${state.code}`;
  }

  failure(what: string): AssayError {
    return new AssayError(
      'backend_error',
      `${this.options.label} (pid ${this.pid}) ${what}; its log is ${this.options.logFile}, ending:\n${indent(logTail(this.options.logFile))}`,
      { exitCode: 1 },
    );
  }

  private async waitHealthy(): Promise<void> {
    const started = Date.now();
    const { timeoutMs } = this.options;
    // Quick polls first (a small model is up in seconds), then one a second.
    let pollMs = this.options.pollMs ?? 100;
    let lastReport = -1;
    for (;;) {
      if (!this.running) throw this.failure(`${this.exitDescription()} before it became healthy`);
      const seconds = Math.floor((Date.now() - started) / 1000);
      if (seconds !== lastReport) {
        lastReport = seconds;
        this.options.onWait?.(seconds);
      }
      if (Date.now() - started > timeoutMs) {
        throw this.failure(
          `did not answer ${this.options.healthPath} within ${Math.round(timeoutMs / 1000)} s (raise \`modelArgs\` server_timeout=SECONDS for a model that loads slowly)`,
        );
      }
      try {
        const response = await fetch(this.options.url + this.options.healthPath, {
          signal: AbortSignal.timeout(5000),
        });
        await response.body?.cancel();
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await Promise.race([sleep(pollMs), this.exited]);
      pollMs = Math.min(1000, pollMs * 1.5);
    }
  }

  /**
   * SIGTERM to the whole process group (the server and the workers it forked), up to `graceMs` for
   * the server to exit, then SIGKILL to whatever of the group is left.
   */
  async stop(graceMs = 15_000): Promise<void> {
    if (this.stopping) {
      await this.exited;
      return;
    }
    this.stopping = true;
    signal(this.pid, 'SIGTERM');
    // A timer that is cleared, so that a stopped server never keeps the process alive for the grace time.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    if (this.running || isGroupAlive(this.pid)) signal(this.pid, 'SIGKILL');
    await this.exited;
    releaseGroup(this.pid);
  }
}

function signal(pgid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pgid, name);
  } catch {
    // ESRCH: gone already.
  }
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  | ${line}`)
    .join('\n');
}

export function commandLine(executable: string, args: string[]): string {
  return [executable, ...args].map(quote).join(' ');
}
