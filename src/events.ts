/**
 * How the library reports while it works: runner events (the progress bar, the sample writer and any
 * viewer feed are listeners) and warnings through an injected logger. The library never writes to the
 * console itself. Imported by every layer that reports (evaluate, models, results), so it imports nothing.
 */
export type RunEvent =
  | { type: 'run-start'; tasks: string[] }
  | { type: 'phase'; phase: 'loading' | 'building' | 'requests' | 'scoring' | 'writing'; detail?: string }
  | { type: 'request-batch-start'; requestType: string; total: number; unique: number }
  | { type: 'request-progress'; requestType: string; done: number; total: number }
  | { type: 'request-batch-end'; requestType: string; total: number; seconds: number }
  | { type: 'warning'; message: string }
  | { type: 'run-end'; seconds: number };

export type RunListener = (event: RunEvent) => void;

export interface Logger {
  warn(message: string): void;
  info?(message: string): void;
}
