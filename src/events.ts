/**
 * How the library reports while it works: runner events (the progress bar, the sample writer and any
 * viewer feed are listeners) and warnings through an injected logger. The library never writes to the
 * console itself. Imported by every layer that reports (evaluate, models, results), so it imports nothing
 * from src/.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** What a long operation counts: its `done` and `total` are in these units. */
export type OperationUnit = 'requests' | 'bytes' | 'docs' | 'programs' | 'tasks' | 'files';

export type RunEvent =
  | { type: 'run-start'; tasks: string[] }
  | { type: 'phase'; phase: 'loading' | 'building' | 'requests' | 'scoring' | 'writing'; detail?: string }
  /** `tasks`: the tasks whose requests of this type are in the batch (one request may serve several). */
  | { type: 'request-batch-start'; requestType: string; total: number; unique: number; tasks?: string[] }
  | { type: 'request-progress'; requestType: string; done: number; total: number }
  | { type: 'request-batch-end'; requestType: string; total: number; seconds: number }
  /**
   * Any other long operation (a Hub download, a Python process_docs, sandboxed programs, a merge, an
   * export): started once, advanced any number of times, ended once, all under one `id`. `total` is
   * absent when the amount of work is unknown (a listener shows the time spent instead).
   */
  | { type: 'operation-start'; id: string; label: string; unit: OperationUnit; done?: number; total?: number }
  | { type: 'operation-progress'; id: string; done: number; total?: number }
  | { type: 'operation-end'; id: string; done: number; seconds: number }
  | { type: 'warning'; message: string }
  | { type: 'run-end'; seconds: number };

export type RunListener = (event: RunEvent) => void;

export interface Logger {
  warn(message: string): void;
  info?(message: string): void;
}

/**
 * The listener of the library call in progress, for code that work reaches lazily and deep below the
 * call's options: a Hub download or a process_docs runs when a task first asks for its docs, through
 * task objects built before the run knew its listener. The call that takes a `listener` runs its work
 * inside `withListener`, and that code reports through `scopedListener()`; concurrent calls each see
 * their own (Node's AsyncLocalStorage follows the async chain), and code outside any call reports nothing.
 */
const scope = new AsyncLocalStorage<RunListener | undefined>();

export function withListener<T>(listener: RunListener | undefined, work: () => T): T {
  return scope.run(listener, work);
}

export function scopedListener(): RunListener | undefined {
  return scope.getStore();
}

export interface OperationHandle {
  progress(done: number, total?: number): void;
  end(done?: number): void;
}

/**
 * Reports one long operation to `listener` (none: every call does nothing): the start now, then progress
 * and one end, which carries the seconds since the start.
 */
export function startOperation(
  listener: RunListener | undefined,
  start: { id: string; label: string; unit: OperationUnit; done?: number; total?: number },
): OperationHandle {
  const started = performance.now();
  let last = start.done ?? 0;
  let ended = false;
  listener?.({ type: 'operation-start', ...start });
  return {
    progress(done, total) {
      last = done;
      listener?.({
        type: 'operation-progress',
        id: start.id,
        done,
        ...(total === undefined ? {} : { total }),
      });
    },
    end(done = last) {
      if (ended) return;
      ended = true;
      listener?.({
        type: 'operation-end',
        id: start.id,
        done,
        seconds: (performance.now() - started) / 1000,
      });
    },
  };
}
