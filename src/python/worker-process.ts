/**
 * One Python child running worker.py, spoken to over its fds 3 (requests) and 4 (replies) in length-prefixed
 * JSON frames (4-byte big-endian length, UTF-8 JSON). Requests are answered in order; several may be in
 * flight. The child's stdin is /dev/null, so task code that reads it gets end-of-file at once instead of
 * reading the protocol or waiting on the terminal; its stdout and stderr carry what task code prints.
 * A long list (a split's docs, doc-function values) goes in parts, a frame each, so that one side decodes
 * a part while the other encodes the next (docs/ARCHITECTURE.md, "Worker").
 * The child lives for a whole run: starting CPython costs tens of milliseconds, a call costs microseconds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { decodeValue, encodeValue, type WorkerRef } from './codec.js';
import { PythonCallError, type PythonFailure, type PythonInfo, WorkerExitError } from './worker-messages.js';

export {
  PythonCallError,
  type PythonFailure,
  type PythonInfo,
  startError,
  WorkerExitError,
} from './worker-messages.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** The parts of a reply's list received so far (the worker's Parts, frames.py), each decoded as it came. */
  parts?: unknown[][];
  /** The entry a `load` request is at (the worker says so before each import). */
  at?: number;
}

/**
 * Items per part when a request's list goes in parts (see `request`): the same size as the worker's
 * PART_ITEMS (assay_worker/frames.py), a few hundred kilobytes of a typical split.
 */
const PART_ITEMS = 2048;

export interface StartOptions {
  /** The interpreter to run (an absolute path). */
  python: string;
  /** Receives what task code writes to stderr (and print()), line by line. */
  onStderr?: (line: string) => void;
  env?: Record<string, string>;
}

/**
 * worker.py, the worker's entry point, ships in the package's src/python/ with the assay_worker package
 * beside it, and is started from there by both src/ and dist/ builds.
 */
export function workerScript(): string {
  const script = path.join(packageRoot(), 'src', 'python', 'worker.py');
  if (!existsSync(script)) throw new Error(`assay's Python worker is missing: ${script}`);
  return script;
}

/**
 * The worker's fds: stdin /dev/null; stdout /dev/null too (the worker points its fd 1 at stderr at once);
 * stderr for what task code prints; then the protocol's two pipes.
 */
const STDIO = ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] as const;
/** After the worker exits, how long its output pipes may still deliver what it wrote before they are dropped. */
const DRAIN_MS = 200;

export class PythonWorker {
  private readonly child: ChildProcess;
  /** fd 3 of the child: assay's requests. */
  private readonly requests: Socket;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** The frames being written, one request after another (see request). */
  private sending: Promise<void> = Promise.resolve();
  private chunks: Buffer[] = [];
  private buffered = 0;
  private exited: Error | undefined;
  private readonly stderrTail: string[] = [];
  private hello: ((info: PythonInfo) => void) | undefined;
  private helloFailed: ((error: Error) => void) | undefined;
  /** Objects the worker holds, by identity: docs it produced are sent back as references. */
  readonly refs = new WeakMap<object, WorkerRef>();
  info!: PythonInfo;

  private constructor(options: StartOptions) {
    this.child = spawn(options.python, [workerScript()], {
      stdio: [...STDIO],
      // A fixed hash seed makes set and dict-of-str iteration, and so sample logs, reproducible.
      env: { PYTHONHASHSEED: '0', ...process.env, PYTHONIOENCODING: 'utf-8', ...options.env },
    });
    this.requests = this.child.stdio[3] as Socket;
    const replies = this.child.stdio[4] as Socket;
    replies.on('data', (chunk: Buffer) => this.receive(chunk));
    let partial = '';
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (text: string) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        this.stderrTail.push(line);
        if (this.stderrTail.length > 20) this.stderrTail.shift();
        options.onStderr?.(line);
      }
    });
    this.child.on('error', (error) => this.fail(error));
    this.child.on('exit', (code, signal) => {
      const tail = this.stderrTail.filter(Boolean).slice(-5).join(' | ');
      this.fail(
        new Error(
          `the Python worker exited (${signal ? `signal ${signal}` : `code ${code}`})${tail ? `: ${tail}` : ''}`,
        ),
      );
      this.release();
    });
    this.requests.on('error', () => {});
  }

  /**
   * Once the worker has exited, its pipes must not keep assay alive: a program task code started (a
   * detached helper) may hold their other ends for as long as it likes. They stop counting at once, and
   * are closed after DRAIN_MS, time enough for what the worker wrote last to arrive.
   */
  private release(): void {
    const pipes = this.child.stdio.filter((pipe): pipe is Socket => !!pipe && 'unref' in pipe);
    for (const pipe of pipes) pipe.unref();
    setTimeout(() => {
      for (const pipe of pipes) pipe.destroy();
    }, DRAIN_MS).unref();
  }

  /** Starts the interpreter and waits for its hello. */
  static start(options: StartOptions): Promise<PythonWorker> {
    const worker = new PythonWorker(options);
    return new Promise((resolve, reject) => {
      worker.hello = (info) => {
        worker.info = info;
        resolve(worker);
      };
      worker.helloFailed = reject;
    });
  }

  private fail(error: Error): void {
    if (this.exited) return;
    this.exited = error;
    this.helloFailed?.(error);
    for (const { reject, at } of this.pending.values()) reject(new WorkerExitError(error.message, at));
    this.pending.clear();
  }

  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 4) {
      if (this.chunks[0].length < 4) this.chunks = [Buffer.concat(this.chunks)];
      const length = this.chunks[0].readUInt32BE(0);
      // Join the chunks only once the whole frame is here: a large frame arrives in many pieces.
      if (this.buffered < 4 + length) return;
      const head = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      const text = head.toString('utf8', 4, 4 + length);
      const rest = head.subarray(4 + length);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
      this.dispatch(text);
    }
  }

  private dispatch(text: string): void {
    if (this.hello) {
      const hello = this.hello;
      this.hello = undefined;
      this.helloFailed = undefined;
      hello(JSON.parse(text) as PythonInfo);
      return;
    }
    let reply: {
      id: number;
      ok: boolean;
      value?: unknown;
      error?: PythonFailure;
      part?: unknown[];
      at?: number;
    };
    try {
      reply = decodeValue(text) as typeof reply;
    } catch (error) {
      // A frame that is not JSON: the protocol is broken, so is every request in flight.
      this.fail(new Error(`the Python worker sent a malformed frame: ${(error as Error).message}`));
      this.child.kill('SIGKILL');
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if (reply.at !== undefined) {
      pending.at = reply.at;
      return;
    }
    if (reply.part !== undefined) {
      if (pending.parts) pending.parts.push(reply.part);
      else pending.parts = [reply.part];
      return;
    }
    this.pending.delete(reply.id);
    if (!reply.ok) {
      pending.reject(new PythonCallError(reply.error as PythonFailure));
      return;
    }
    const value = reply.value as Record<string, unknown> | null;
    const key = value?.$parts;
    if (value && typeof key === 'string') {
      // The final frame of a reply sent in parts: its list is the parts, in order.
      delete value.$parts;
      value[key] = pending.parts?.flat(1) ?? [];
    }
    pending.resolve(value);
  }

  /**
   * Sends one request; resolves with its value or rejects with a PythonCallError. A long list (a split's
   * docs) given as `parts` goes after the request in parts of PART_ITEMS, one frame each, each part
   * encoded once the one before it is in the pipe: the worker decodes a part while this side encodes the
   * next. The worker sees the list as `payload[parts.key]`.
   */
  request<T = unknown>(
    op: string,
    payload: Record<string, unknown> = {},
    parts?: { key: string; items: readonly unknown[] },
  ): Promise<T> {
    if (this.exited) return Promise.reject(new WorkerExitError(this.exited.message));
    const id = this.nextId++;
    const refOf = (value: object) => this.refs.get(value);
    const count = parts ? Math.ceil(parts.items.length / PART_ITEMS) : 0;
    // The request itself is encoded now (its payload may be the caller's to change afterwards).
    const head = encodeValue(
      parts ? { id, op, ...payload, $parts: [parts.key, count] } : { id, op, ...payload },
      refOf,
    );
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // One request's frames at a time, in order: the parts of two requests must not interleave.
      this.sending = this.sending.then(async () => {
        await this.write(head);
        for (let part = 0; part < count; part++) {
          const start = part * PART_ITEMS;
          let text: string;
          try {
            text = encodeValue(parts?.items.slice(start, start + PART_ITEMS), refOf);
          } catch (error) {
            // The worker waits for the rest of this request: a frame that is not JSON ends its wait (it
            // answers with an error, ignored: the request fails here with the reason).
            this.pending.delete(id);
            reject(error as Error);
            await this.write('');
            return;
          }
          await this.write(text);
        }
      });
    });
  }

  /**
   * One frame: its length (4 bytes, big-endian), then the UTF-8 text. Resolves once the frame is handed to
   * the pipe; a failed write resolves too (the worker's exit rejects what is pending).
   */
  private write(text: string): Promise<void> {
    const body = Buffer.from(text, 'utf8');
    const header = Buffer.alloc(4);
    header.writeUInt32BE(body.length, 0);
    return new Promise((done) => {
      if (this.requests.destroyed) done();
      else this.requests.write(Buffer.concat([header, body]), () => done());
    });
  }

  /** Ends the worker: closes its request pipe (it returns from its loop) and waits for it to exit. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.requests.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }

  /** Kills the worker at once (a call that never returns). */
  kill(): void {
    this.child.kill('SIGKILL');
  }
}
