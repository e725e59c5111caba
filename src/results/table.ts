/**
 * lm-eval's make_table (lm_eval/utils.py), rendered as pytablewriter's Markdown writer does: headers
 * centred, numeric columns right-aligned with `-----:` rules, text columns left-aligned, widths at least 3.
 * With `uncertainty`, two columns follow lm-eval's: each metric's 95% interval and its n, read from the
 * results file (`<metric>_ci` and `stats`), never recomputed here.
 */
const ARROWS: Record<string, string> = { true: '↑', false: '↓' };

export interface TableSource {
  results: Record<string, Record<string, unknown>>;
  groups?: Record<string, Record<string, unknown>>;
  versions: Record<string, unknown>;
  'n-shot': Record<string, unknown>;
  higher_is_better: Record<string, Record<string, boolean>>;
  /** assay's per-metric statistics (n, the interval's level and method); lm-eval's files have none. */
  stats?: Record<string, Record<string, { n: number; ci_level?: number | null; ci_method?: string | null }>>;
}

export interface TableOptions {
  /** Add the `95% CI` and `n` columns after lm-eval's (default: lm-eval's table exactly). */
  uncertainty?: boolean;
}

export function makeTable(
  source: TableSource,
  column: 'results' | 'groups' = 'results',
  options: TableOptions = {},
): string {
  // A capped run (--max_latency_s) shows each task's timed-out docs; other runs keep lm-eval's columns.
  const capped = Object.values(source[column] ?? {}).some((entry) => typeof entry.timeouts === 'number');
  const headers = [
    column === 'results' ? 'Tasks' : 'Groups',
    'Version',
    'Filter',
    'n-shot',
    'Metric',
    '',
    'Value',
    '',
    'Stderr',
    ...(capped ? ['Timeouts'] : []),
    ...(options.uncertainty ? ['95% CI', 'n'] : []),
  ];
  const rows: string[][] = [];
  for (const [key, entry] of Object.entries(source[column] ?? {})) {
    let name = (typeof entry.alias === 'string' ? entry.alias : key) + partialNote(entry);
    let version = key in source.versions ? formatPlain(source.versions[key]) : '    N/A';
    const nShot = key in source['n-shot'] ? formatPlain(source['n-shot'][key]) : ' ';
    const higher = source.higher_is_better[key] ?? {};
    let timeouts = capped ? (typeof entry.timeouts === 'number' ? String(entry.timeouts) : '') : undefined;
    const metricKeys = Object.keys(entry)
      .filter((metricKey) => metricKey.includes(',') && !metricKey.split(',')[0].endsWith('_stderr'))
      .filter((metricKey) => !metricKey.split(',')[0].endsWith('_ci'))
      .sort();
    for (const metricKey of metricKeys) {
      const [metric, filter] = splitOnce(metricKey);
      const value = entry[metricKey];
      const arrow = metric in higher ? ARROWS[String(higher[metric])] : '';
      const shown =
        typeof value === 'number'
          ? Number.isInteger(value) && metric === 'bypass'
            ? String(value)
            : value.toFixed(4)
          : formatPlain(value);
      const stderrKey = `${metric}_stderr,${filter}`;
      const uncertainty = options.uncertainty ? uncertaintyCells(source, key, entry, metricKey) : [];
      if (stderrKey in entry) {
        const se = entry[stderrKey];
        rows.push([
          name,
          version,
          filter,
          nShot,
          metric,
          arrow,
          shown,
          '±',
          se === 'N/A' ? '   N/A' : (se as number).toFixed(4),
          ...(timeouts === undefined ? [] : [timeouts]),
          ...uncertainty,
        ]);
      } else {
        rows.push([
          name,
          version,
          filter,
          nShot,
          metric,
          arrow,
          shown,
          '',
          '',
          ...(timeouts === undefined ? [] : [timeouts]),
          ...uncertainty,
        ]);
      }
      name = '';
      version = '';
      if (timeouts !== undefined) timeouts = '';
    }
  }
  return renderMarkdown(headers, rows);
}

/** A metric's interval, as the results file has it: `[low, high]`, or undefined. */
export function intervalOf(entry: Record<string, unknown>, metricKey: string): [number, number] | undefined {
  const [metric, filter] = splitOnce(metricKey);
  const value = entry[`${metric}_ci,${filter}`];
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [low, high] = value;
  return typeof low === 'number' && typeof high === 'number' ? [low, high] : undefined;
}

/** `[0.022, 0.471]`: three decimals, as many as a point of a percentage needs and no more. */
export function formatInterval([low, high]: [number, number]): string {
  const shown = (value: number) => (Math.abs(value) >= 1000 ? value.toFixed(0) : value.toFixed(3));
  return `[${shown(low)}, ${shown(high)}]`;
}

function uncertaintyCells(
  source: TableSource,
  key: string,
  entry: Record<string, unknown>,
  metricKey: string,
): [string, string] {
  const interval = intervalOf(entry, metricKey);
  const stats = source.stats?.[key]?.[metricKey];
  const level = stats?.ci_level;
  // The header says 95%; an interval at another level says its own.
  const other = typeof level === 'number' && level !== 0.95 ? ` (${Math.round(level * 100)}%)` : '';
  return [interval ? formatInterval(interval) + other : '', stats ? String(stats.n) : ''];
}

/**
 * A task whose docs partly errored or timed out says so beside its name: its values cover the docs
 * answered (in time) only.
 */
function partialNote(entry: Record<string, unknown>): string {
  if (entry.partial !== true) return '';
  const errors = typeof entry.errors === 'number' ? entry.errors : 0;
  const timeouts = typeof entry.timeouts === 'number' ? entry.timeouts : 0;
  if (errors === 0 && timeouts === 0) return '';
  const left = [
    ...(errors > 0 ? [`${errors} errored`] : []),
    ...(timeouts > 0 ? [`${timeouts} timed out`] : []),
  ].join(', ');
  const answered = typeof entry.answered === 'number' ? entry.answered : undefined;
  const of = answered === undefined ? '' : `, ${answered} of ${answered + errors + timeouts} docs`;
  return ` (partial: ${left}${of})`;
}

function splitOnce(key: string): [string, string] {
  const at = key.indexOf(',');
  return [key.slice(0, at), key.slice(at + 1)];
}

function formatPlain(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  return String(value);
}

const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** pytablewriter's Markdown table, as lm-eval prints its tables. */
export function renderMarkdown(headers: string[], rows: string[][]): string {
  // Loops rather than per-cell arrays: the task listing renders 13,000 rows of lm-eval's tree.
  const widths = headers.map((header) => Math.max(3, displayWidth(header)));
  for (const row of rows) {
    for (let column = 0; column < widths.length; column++) {
      const width = displayWidth(row[column]);
      if (width > widths[column]) widths[column] = width;
    }
  }
  const numeric = headers.map((_, column) => {
    let cells = 0;
    for (const row of rows) {
      const cell = row[column];
      if (cell.trim() === '') continue;
      if (!NUMBER.test(cell)) return false;
      cells++;
    }
    return cells > 0;
  });
  const spaces = ' '.repeat(Math.max(...widths));
  const pad = (text: string, width: number, align: 'left' | 'right' | 'center') => {
    const space = width - displayWidth(text);
    if (align === 'right') return spaces.slice(0, space) + text;
    if (align === 'left') return text + spaces.slice(0, space);
    const left = Math.floor(space / 2);
    return spaces.slice(0, left) + text + spaces.slice(0, space - left);
  };
  const lines = [
    `|${headers.map((header, i) => pad(header, widths[i], 'center')).join('|')}|`,
    `|${widths.map((width, i) => (numeric[i] ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width))).join('|')}|`,
  ];
  for (const row of rows) {
    let line = '|';
    for (let column = 0; column < widths.length; column++)
      line += `${pad(row[column], widths[column], numeric[column] ? 'right' : 'left')}|`;
    lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Code points, as Python's len(): a surrogate pair is one character. */
function displayWidth(text: string): number {
  return SURROGATE.test(text) ? [...text].length : text.length;
}
