/**
 * What the console progress draws through: a TTY renderer (progress-tty.ts, bars redrawn in place) and a
 * plain one for logs (progress-plain.ts, periodic lines). progress.ts turns runner events into these calls.
 */
import type { OperationUnit } from '../events.js';

/** One long operation as the listener tracks it. */
export interface TrackedOperation {
  id: string;
  label: string;
  unit: OperationUnit;
  done: number;
  total?: number;
  /** The count when it started (a resumed download's bytes already on disk). */
  startDone: number;
  /** The clock's milliseconds when it started. */
  startedMs: number;
}

export interface ProgressRenderer {
  /** An operation started or advanced. */
  update(operation: TrackedOperation): void;
  /**
   * An operation finished. `summary`: its closing line is part of the run's account (a request batch's
   * count, time and rate) and always stays; other operations leave one only when they took a while.
   */
  end(operation: TrackedOperation, summary: boolean): void;
  /** What the run is doing between operations (`loading: model gguf`). */
  status(text: string | undefined): void;
  /** A line above the progress (a warning, another listener's note). */
  line(text: string): void;
  /** Draws what is due now: the renderer's own timer calls it; tests call it with their clock. */
  tick(): void;
  /** Stops drawing and its timers; what is drawn in place is cleared. */
  stop(): void;
}
