/**
 * The text of a progress line, in tqdm's terms (lm-eval's progress bars): `done/total`, the percentage,
 * `[elapsed<remaining, rate]` with times as tqdm's format_interval writes them (`mm:ss`, `h:mm:ss`) and
 * the rate as items per second, or seconds per item below one a second. Bytes are shown in SI units
 * (kB, MB, GB: 1000-based), as a download's size.
 */
import type { OperationUnit } from '../events.js';

/** What is drawn of one operation: its counts and the seconds since it started. */
export interface OperationState {
  label: string;
  unit: OperationUnit;
  done: number;
  total?: number;
  /** Where the operation started counting (a resumed download starts at the bytes it already had). */
  startDone: number;
  seconds: number;
}

const ITEM: Record<Exclude<OperationUnit, 'bytes'>, string> = {
  requests: 'req',
  docs: 'doc',
  programs: 'prog',
  tasks: 'task',
  files: 'file',
};

/** tqdm's format_interval: `mm:ss` below an hour, `h:mm:ss` from an hour on. */
export function formatInterval(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(whole / 60);
  const hours = Math.floor(minutes / 60);
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0
    ? `${hours}:${pad(minutes % 60)}:${pad(whole % 60)}`
    : `${pad(minutes)}:${pad(whole % 60)}`;
}

/** A byte count in SI units: `512 B`, `1.2 kB`, `34.0 MB`, `1.50 GB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let index = 0;
  while (value >= 1000 && index < units.length - 1) {
    value /= 1000;
    index += 1;
  }
  return `${value.toFixed(value >= 100 ? 0 : 1)} ${units[index]}`;
}

function amount(value: number, unit: OperationUnit): string {
  return unit === 'bytes' ? formatBytes(value) : String(value);
}

/** Items per second (`12.50 req/s`), seconds per item below one a second (`4.00 s/req`), bytes as `1.2 MB/s`. */
export function formatRate(perSecond: number, unit: OperationUnit): string {
  if (!(perSecond > 0) || !Number.isFinite(perSecond)) return `? ${unit === 'bytes' ? 'B' : ITEM[unit]}/s`;
  if (unit === 'bytes') return `${formatBytes(perSecond)}/s`;
  if (perSecond < 1) return `${(1 / perSecond).toFixed(2)} s/${ITEM[unit]}`;
  return `${perSecond.toFixed(2)} ${ITEM[unit]}/s`;
}

/** The rate since the start, and the seconds left at that rate (undefined while unknown). */
export function rateAndRemaining(state: OperationState): { rate: number; remaining?: number } {
  const counted = state.done - state.startDone;
  const rate = state.seconds > 0 && counted > 0 ? counted / state.seconds : 0;
  if (state.total === undefined || rate === 0) return { rate };
  return { rate, remaining: Math.max(0, state.total - state.done) / rate };
}

/** `50/112` or, for bytes, `1.2 MB/4.0 MB`; without a total, the count alone. */
export function formatCount(state: OperationState): string {
  const done = amount(state.done, state.unit);
  return state.total === undefined ? done : `${done}/${amount(state.total, state.unit)}`;
}

export function formatPercent(state: OperationState): string {
  if (state.total === undefined) return '';
  const fraction = state.total > 0 ? Math.min(1, state.done / state.total) : 1;
  return `${Math.floor(fraction * 100)}%`;
}

/**
 * tqdm's bracket: `[00:12<00:15, 150.21 req/s]` while running, `[00:26, 150.21 req/s]` when finished or
 * when the total is unknown, `[00:12]` while nothing is counted yet (an operation of unknown size).
 */
export function formatTiming(state: OperationState, finished: boolean): string {
  const elapsed = formatInterval(state.seconds);
  const { rate, remaining } = rateAndRemaining(state);
  const counted = state.done - state.startDone;
  if (counted <= 0 && (finished || state.total === undefined)) return `[${elapsed}]`;
  const shownRate = formatRate(rate, state.unit);
  if (finished || state.total === undefined) return `[${elapsed}, ${shownRate}]`;
  return `[${elapsed}<${remaining === undefined ? '?' : formatInterval(remaining)}, ${shownRate}]`;
}

/**
 * One plain line (no bar): `loglikelihood (arc_easy): 50/112 (44%) [00:02<00:02, 25.00 req/s]`; a finished
 * operation of unknown size shows its count and time (`process_docs …: done [00:12]`).
 */
export function plainLine(state: OperationState, finished: boolean): string {
  const timing = formatTiming(state, finished);
  if (state.total === undefined) {
    const counted = state.done > 0 ? `${formatCount(state)} ` : finished ? 'done ' : '';
    return `${state.label}: ${counted}${timing}`;
  }
  return `${state.label}: ${formatCount(state)} (${formatPercent(state)}) ${timing}`;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** tqdm's bar: full blocks, one partial block in eighths, spaces. */
export function formatBar(fraction: number, width: number): string {
  const eighths = Math.floor(Math.min(1, Math.max(0, fraction)) * width * 8);
  const full = Math.floor(eighths / 8);
  const partial = full < width ? EIGHTHS[eighths % 8] : '';
  return `${'█'.repeat(full)}${partial}`.padEnd(width, ' ');
}

const MAX_BAR = 30;
const MIN_BAR = 10;

/**
 * One terminal line, as tqdm draws it, fitted to `width` columns: `label:  44%|████▍     | 50/112
 * [00:02<00:02, 25.00 req/s]`. The bar takes the room left (10 to 30 columns); a label too long for a
 * 10-column bar is cut with `…`. Without a total there is no bar: `label: [00:12]`.
 */
export function terminalLine(state: OperationState, finished: boolean, width: number): string {
  const timing = formatTiming(state, finished);
  if (state.total === undefined) {
    const counted = state.done > 0 ? `${formatCount(state)} ` : '';
    return fitted(state.label, `: ${counted}${timing}`, width);
  }
  const fraction = state.total > 0 ? Math.min(1, state.done / state.total) : 1;
  const tail = `| ${formatCount(state)} ${timing}`;
  const percent = formatPercent(state).padStart(4);
  const room = width - [...state.label].length - 2 - percent.length - 1 - tail.length;
  const barWidth = Math.max(MIN_BAR, Math.min(MAX_BAR, room));
  return fitted(state.label, `: ${percent}|${formatBar(fraction, barWidth)}${tail}`, width);
}

/** `label` + `rest` within `width` columns, the label shortened first (it keeps at least 10 characters). */
function fitted(label: string, rest: string, width: number): string {
  const characters = [...label];
  const room = width - [...rest].length;
  if (characters.length <= room) return label + rest;
  const kept = Math.max(10, room - 1);
  return `${characters.slice(0, kept).join('')}…${rest}`;
}

/** A status with other numbers in it (a server's start-up seconds) is the same status, updated. */
export function statusKey(text: string): string {
  return text.replace(/\d+(\.\d+)?/g, '#');
}
