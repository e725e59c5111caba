/**
 * Progress for a stderr that is not a terminal (a CI log, a file, a pipe): whole lines, no escape codes,
 * few of them. Anything that is over within 10 seconds prints nothing, except a request batch's closing
 * line (its count, time and rate: the run's account, as lm-eval's finished tqdm bars). A longer operation
 * prints a line each time it passes another tenth of its total, at most one per 10 seconds, and at least
 * one per 30 seconds while it runs, so a stalled server still shows that it is being waited for; then its
 * closing line. A status (the run's phase: loading a model, starting a server) still current after 10
 * seconds prints, and again every 30 seconds.
 */
import { plainLine, statusKey } from './progress-format.js';
import type { ProgressRenderer, TrackedOperation } from './progress-render.js';

const QUIET_START_MS = 10_000;
const MIN_GAP_MS = 10_000;
const HEARTBEAT_MS = 30_000;

interface Printed {
  atMs: number;
  tenth: number;
}

interface Status {
  text: string;
  sinceMs: number;
  printedMs?: number;
}

export function plainRenderer(
  write: (text: string) => void,
  now: () => number,
  options: { checkEveryMs?: number } = {},
): ProgressRenderer {
  const active = new Map<string, TrackedOperation>();
  const printed = new Map<string, Printed>();
  let status: Status | undefined;

  const print = (operation: TrackedOperation, finished: boolean) => {
    const state = { ...operation, seconds: (now() - operation.startedMs) / 1000 };
    write(`assay: ${plainLine(state, finished)}\n`);
  };
  const tenthOf = (operation: TrackedOperation) =>
    operation.total ? Math.floor((10 * operation.done) / operation.total) : 0;
  const due = (operation: TrackedOperation): boolean => {
    const last = printed.get(operation.id);
    const since = now() - (last?.atMs ?? operation.startedMs);
    if (since >= HEARTBEAT_MS) return true;
    if (since < (last ? MIN_GAP_MS : QUIET_START_MS)) return false;
    return tenthOf(operation) > (last?.tenth ?? 0);
  };
  const maybePrint = (operation: TrackedOperation) => {
    if (!due(operation)) return;
    print(operation, false);
    printed.set(operation.id, { atMs: now(), tenth: tenthOf(operation) });
  };
  const maybePrintStatus = () => {
    if (!status) return;
    const at = now();
    const due =
      status.printedMs === undefined
        ? at - status.sinceMs >= QUIET_START_MS
        : at - status.printedMs >= HEARTBEAT_MS;
    if (!due) return;
    status.printedMs = at;
    write(`assay: ${status.text}\n`);
  };
  const tick = () => {
    for (const operation of active.values()) maybePrint(operation);
    maybePrintStatus();
  };
  // The heartbeat for work that sends no events for a while (a server thinking, a model loading); unref'd,
  // it never keeps the process alive.
  const timer = setInterval(tick, options.checkEveryMs ?? 5_000);
  timer.unref();

  return {
    tick,
    update(operation) {
      active.set(operation.id, operation);
      maybePrint(operation);
    },
    end(operation, summary) {
      active.delete(operation.id);
      if (summary || printed.has(operation.id)) print(operation, true);
      printed.delete(operation.id);
    },
    status(text) {
      if (text === undefined) {
        status = undefined;
        return;
      }
      if (status && statusKey(status.text) === statusKey(text)) status.text = text;
      else status = { text, sinceMs: now() };
      maybePrintStatus();
    },
    line(text) {
      write(`${text}\n`);
    },
    stop() {
      clearInterval(timer);
      active.clear();
      printed.clear();
      status = undefined;
    },
  };
}
