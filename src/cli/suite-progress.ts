/**
 * `assay suite run`'s progress over cells: a line as each cell starts, is skipped, ends or fails, with the
 * cells left and an ETA from the mean time of the cells run so far; each cell's requests are drawn by the
 * run's own progress listener below those lines.
 */
import type { SuiteEvent } from '../suite/suite-events.js';
import { formatInterval } from './progress-format.js';

export interface SuiteProgressState {
  /** Seconds of each cell run so far (skipped ones excluded: they take no time). */
  seconds: number[];
}

/** The line an event prints, or undefined (events that print nothing). */
export function suiteProgressLine(event: SuiteEvent, state: SuiteProgressState): string | undefined {
  switch (event.type) {
    case 'suite-start':
      return `suite: ${event.cells} cells, ${event.toRun} to run, ${event.skipped} skipped (finished with identical settings and task content)`;
    case 'cell-skipped':
      return `skipped ${event.model} × ${event.taskSet}: ${event.reason}`;
    case 'cell-changed':
      return `rerunning ${event.model} × ${event.taskSet}: ${event.reasons.join('; ')}`;
    case 'model-start':
      return `model ${event.model}: starting its backend once for its task sets`;
    case 'cell-start':
      return `[${event.position}/${event.toRun}] ${event.model} × ${event.taskSet}${event.slice ? ` (docs ${event.slice.index}/${event.slice.count})` : ''}: running`;
    case 'cell-end': {
      state.seconds.push(event.seconds);
      const left = event.toRun - event.position;
      const mean = state.seconds.reduce((sum, value) => sum + value, 0) / state.seconds.length;
      const eta = left > 0 ? `, ${left} left, ETA ${formatInterval(mean * left)}` : '';
      const errored = event.erroredSamples > 0 ? ` (${event.erroredSamples} errored samples)` : '';
      return `[${event.position}/${event.toRun}] ${event.model} × ${event.taskSet}: done in ${formatInterval(event.seconds)}${errored}${eta}`;
    }
    case 'cell-failed':
      return `[${event.position}/${event.toRun}] ${event.model} × ${event.taskSet}: FAILED: ${event.message}`;
    case 'suite-end':
      return `suite: ${event.ran} cells run, ${event.skipped} skipped, ${event.failed} failed in ${formatInterval(event.seconds)}`;
    default:
      return undefined;
  }
}
