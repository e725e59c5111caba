/// <reference path="./cli-progress.d.ts" />
/**
 * Progress on a terminal: one line per running operation under a status line, redrawn in place ten times
 * a second by cli-progress's MultiBar (cursor movement, clearing, lines printed above the bars), with
 * tqdm's layout (progress-format.ts). A finished request batch, and any operation that took a second or
 * more, leaves its final line above the bars, as tqdm leaves a finished bar; shorter ones vanish.
 */
import { createRequire } from 'node:module';
import type cliProgress from 'cli-progress';
import { formatInterval, statusKey, terminalLine } from './progress-format.js';
import type { ProgressRenderer, TrackedOperation } from './progress-render.js';

const KEEP_AFTER_SECONDS = 1;

// cli-progress (21 CommonJS modules) is required when the first bar is drawn: a run whose stderr is not a
// terminal (a CI log, every test that spawns the CLI) never loads it.
const require = createRequire(import.meta.url);

export function ttyRenderer(stream: NodeJS.WriteStream, now: () => number): ProgressRenderer {
  let multibar: cliProgress.MultiBar | undefined;
  const bars = new Map<string, { bar: cliProgress.SingleBar; operation: TrackedOperation }>();
  let status: { text: string; sinceMs: number; bar: cliProgress.SingleBar } | undefined;

  const width = () => Math.max(40, (stream.columns || 80) - 1);
  const stateOf = (operation: TrackedOperation) => ({
    ...operation,
    seconds: (now() - operation.startedMs) / 1000,
  });
  const open = (): cliProgress.MultiBar => {
    multibar ??= new (require('cli-progress') as typeof cliProgress).MultiBar({
      stream,
      format: (_options, _params, payload) => (payload.render as () => string)(),
      fps: 10,
      clearOnComplete: true,
      hideCursor: false,
      // true keeps the terminal's own wrapping on (false would switch it off until stop) and cuts each
      // line at the terminal's width.
      linewrap: true,
      gracefulExit: false,
    });
    return multibar;
  };
  /** With nothing left to draw, the MultiBar stops (its redraw timer would keep the process alive). */
  const closeIfIdle = () => {
    if (!multibar || bars.size > 0 || status) return;
    multibar.stop();
    multibar = undefined;
  };
  const print = (text: string) => {
    if (multibar) {
      multibar.log(`${text}\n`);
      multibar.update();
    } else stream.write(`${text}\n`);
  };

  return {
    update(operation) {
      const known = bars.get(operation.id);
      if (known) {
        // The bar's line is drawn from `operation` at the next redraw; cli-progress's own count is unused.
        known.operation = operation;
        return;
      }
      const entry = { operation, bar: undefined as unknown as cliProgress.SingleBar };
      entry.bar = open().create(operation.total ?? 0, operation.done, {
        render: () => terminalLine(stateOf(entry.operation), false, width()),
      });
      bars.set(operation.id, entry);
    },
    end(operation, summary) {
      const known = bars.get(operation.id);
      bars.delete(operation.id);
      // Its bar goes first, so the final line printed above the others is not drawn twice.
      if (known && multibar) multibar.remove(known.bar);
      const state = stateOf(operation);
      if (summary || state.seconds >= KEEP_AFTER_SECONDS) print(terminalLine(state, true, width()));
      closeIfIdle();
    },
    status(text) {
      if (text === undefined) {
        if (status && multibar) multibar.remove(status.bar);
        status = undefined;
        closeIfIdle();
        return;
      }
      if (status && status.text === text) return;
      const sinceMs = status && statusKey(status.text) === statusKey(text) ? status.sinceMs : now();
      if (status) {
        status.text = text;
        status.sinceMs = sinceMs;
        return;
      }
      const current = { text, sinceMs, bar: undefined as unknown as cliProgress.SingleBar };
      current.bar = open().create(0, 0, {
        render: () => `assay: ${current.text} [${formatInterval((now() - current.sinceMs) / 1000)}]`,
      });
      status = current;
    },
    line(text) {
      print(text);
    },
    tick() {
      multibar?.update();
    },
    stop() {
      bars.clear();
      status = undefined;
      // Lines printed are written at once (print), so nothing waits for a last redraw: stop clears the bars.
      multibar?.stop();
      multibar = undefined;
    },
  };
}
