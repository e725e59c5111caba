import type { RunEvent, RunListener } from '../events.js';
import { withFlagNames } from './errors.js';
import { plainRenderer } from './progress-plain.js';
import type { ProgressRenderer, TrackedOperation } from './progress-render.js';
import { ttyRenderer } from './progress-tty.js';

/**
 * The CLI's progress on stderr, one listener of the runner events: request batches (done/total, rate,
 * ETA), the other long operations (downloads, process_docs, sandboxed programs, merge, export) and the
 * run's phase. On a terminal it draws bars in place (progress-tty.ts); elsewhere it prints a few plain
 * lines (progress-plain.ts). `show.progress` false (--verbosity WARNING and above, --quiet) draws nothing;
 * warnings print unless `show.warnings` is false. Events it does not know are ignored, so other listeners'
 * events can share the stream; `line` prints another listener's text above the bars.
 */
export interface ConsoleProgress extends RunListener {
  /** Prints a line on the stream, above whatever is drawn. */
  line(text: string): void;
  /** Draws what is due now (the renderers' timers do it on their own; tests call it with their clock). */
  tick(): void;
  /** Stops drawing (clears the bars, stops the timers); call it before the process writes its output. */
  stop(): void;
}

export interface ProgressOptions {
  /** Milliseconds of a monotonic clock (tests fix it). */
  now?: () => number;
  /** The plain renderer's heartbeat period. */
  checkEveryMs?: number;
}

const PHASE_TEXT: Record<Extract<RunEvent, { type: 'phase' }>['phase'], string> = {
  loading: 'loading',
  building: 'building requests',
  requests: 'running requests',
  scoring: 'scoring',
  writing: 'writing outputs',
};

/** `loglikelihood (arc_easy, hellaswag)`; past three tasks, the first two and how many more. */
export function requestLabel(requestType: string, tasks: string[] | undefined): string {
  if (!tasks?.length) return requestType;
  const shown =
    tasks.length <= 3
      ? tasks.join(', ')
      : `${tasks.slice(0, 2).join(', ')} and ${tasks.length - 2} more tasks`;
  return `${requestType} (${shown})`;
}

export function progressListener(
  stream: NodeJS.WriteStream = process.stderr,
  show: { progress: boolean; warnings: boolean } = { progress: true, warnings: true },
  options: ProgressOptions = {},
): ConsoleProgress {
  const now = options.now ?? (() => performance.now());
  const tty = Boolean(stream.isTTY);
  let renderer: ProgressRenderer | undefined;
  // Made at the first event that draws: a listener that is never used starts no timer.
  const draw = (): ProgressRenderer | undefined => {
    if (!show.progress) return undefined;
    renderer ??= tty
      ? ttyRenderer(stream, now)
      : plainRenderer((text) => stream.write(text), now, { checkEveryMs: options.checkEveryMs });
    return renderer;
  };
  const operations = new Map<string, TrackedOperation>();
  const start = (operation: Omit<TrackedOperation, 'startedMs' | 'startDone'>) => {
    const tracked = { ...operation, startDone: operation.done, startedMs: now() };
    operations.set(operation.id, tracked);
    draw()?.update(tracked);
  };
  // Called once per answered request: it updates in place and allocates nothing.
  const advance = (id: string, done: number, total?: number) => {
    const known = operations.get(id);
    if (!known) return;
    known.done = done;
    if (total !== undefined) known.total = total;
    draw()?.update(known);
  };
  const finish = (id: string, done: number, summary: boolean) => {
    const known = operations.get(id);
    if (!known) return;
    operations.delete(id);
    draw()?.end({ ...known, done }, summary);
  };
  const line = (text: string) => {
    if (renderer) renderer.line(text);
    else stream.write(`${text}\n`);
  };
  const stop = () => {
    renderer?.stop();
    renderer = undefined;
    operations.clear();
  };

  const listener = (event: RunEvent) => {
    switch (event.type) {
      case 'warning':
        if (show.warnings) line(`assay: warning: ${withFlagNames(event.message)}`);
        return;
      case 'phase': {
        const text = `${PHASE_TEXT[event.phase]}${event.detail ? `: ${event.detail}` : ''}`;
        // Logs get what a phase is doing only when it says (a model loading, a server starting).
        draw()?.status(tty || event.detail ? text : undefined);
        return;
      }
      case 'request-batch-start':
        start({
          id: `requests:${event.requestType}`,
          label: requestLabel(event.requestType, event.tasks),
          unit: 'requests',
          done: 0,
          total: event.unique,
        });
        return;
      case 'request-progress':
        // Once per answered request: nothing to do when nothing is drawn (--quiet).
        if (show.progress) advance(`requests:${event.requestType}`, event.done, event.total);
        return;
      case 'request-batch-end':
        finish(`requests:${event.requestType}`, event.total, true);
        return;
      case 'operation-start':
        start({
          id: event.id,
          label: event.label,
          unit: event.unit,
          done: event.done ?? 0,
          total: event.total,
        });
        return;
      case 'operation-progress':
        advance(event.id, event.done, event.total);
        return;
      case 'operation-end':
        finish(event.id, event.done, false);
        return;
      case 'run-end':
        stop();
        return;
      default:
        return;
    }
  };
  return Object.assign(listener, { line, stop, tick: () => renderer?.tick() });
}
