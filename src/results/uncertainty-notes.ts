/**
 * The lines under the console's results table: which interval method each column's intervals come from,
 * and, for each task or group whose interval is wider than ±10 points, how many docs a ±2-point interval
 * would need. Everything is read from the results file (`<metric>_ci`, `stats`): the table shows what the
 * file holds, and the sample size is computed at the observed value with the stats library.
 */
import { scaledSampleSize, wilsonSampleSize } from '../stats/interval-sample-size.js';
import { formatInterval, intervalOf, type TableSource } from './table.js';

export interface WideInterval {
  /** The task or group (its alias when it has one). */
  name: string;
  metric: string;
  value: number;
  interval: [number, number];
  n: number;
  /** Docs for a ±`target` interval at the observed value. */
  needed: number;
  /** wilson: the Wilson score width at the observed proportion; scaled: the observed width × √(n / n′). */
  by: 'wilson' | 'scaled';
}

export interface WideIntervalOptions {
  /** A note for an interval whose half-width is above this (default 0.10: ±10 points). */
  widerThan?: number;
  /** The half-width the note asks about (default 0.02: ±2 points). */
  target?: number;
}

const METHOD_TEXT: Record<string, string> = {
  wilson: 'Wilson score (0/1 scores)',
  t: "Student's t (other means)",
  'percentile-bootstrap': 'percentile bootstrap',
  normal: 'value ± 1.96 × stderr (groups)',
};

/**
 * The first metric (in the table's order) of each task or group whose 95% interval is wider than
 * ±`widerThan`, among metrics on a 0–1 scale: 0/1 scores (Wilson), or means and group means whose value
 * and interval lie in [0, 1].
 */
export function wideIntervals(
  source: TableSource,
  column: 'results' | 'groups' = 'results',
  options: WideIntervalOptions = {},
): WideInterval[] {
  const widerThan = options.widerThan ?? 0.1;
  const target = options.target ?? 0.02;
  const found: WideInterval[] = [];
  for (const [key, entry] of Object.entries(source[column] ?? {})) {
    const metricKeys = Object.keys(entry)
      .filter((metricKey) => metricKey.includes(',') && typeof entry[metricKey] === 'number')
      .sort();
    for (const metricKey of metricKeys) {
      const interval = intervalOf(entry, metricKey);
      const stats = source.stats?.[key]?.[metricKey];
      const value = entry[metricKey] as number;
      if (!interval || !stats || !(stats.n > 0)) continue;
      const half = (interval[1] - interval[0]) / 2;
      if (!(half > widerThan)) continue;
      const method = stats.ci_method;
      const unitScale = [value, ...interval].every((x) => x >= 0 && x <= 1);
      let wide: WideInterval | undefined;
      const base = {
        name: typeof entry.alias === 'string' ? entry.alias : key,
        metric: metricKey,
        value,
        interval,
        n: stats.n,
      };
      if (method === 'wilson') wide = { ...base, needed: wilsonSampleSize(value, target), by: 'wilson' };
      else if ((method === 't' || method === 'normal') && unitScale)
        wide = { ...base, needed: scaledSampleSize(stats.n, half, target), by: 'scaled' };
      if (wide) {
        found.push(wide);
        break;
      }
    }
  }
  return found;
}

/**
 * `12,345`, as `toLocaleString('en-US')` writes a whole number. Its first call in a process loads ICU's
 * number formatting, 30–50 ms of CPU that every run printing a note would spend on one comma.
 */
export function groupedDigits(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The legend and one line per wide interval, for the tables printed (`results`, and `groups` when there). */
export function uncertaintyNotes(source: TableSource, options: WideIntervalOptions = {}): string[] {
  const columns: Array<'results' | 'groups'> = source.groups ? ['results', 'groups'] : ['results'];
  const methods = new Set<string>();
  for (const column of columns)
    for (const key of Object.keys(source[column] ?? {}))
      for (const stats of Object.values(source.stats?.[key] ?? {}))
        if (stats.ci_method) methods.add(stats.ci_method);
  if (methods.size === 0) return [];
  const widerThan = options.widerThan ?? 0.1;
  const target = options.target ?? 0.02;
  const points = (half: number) => `${Number((half * 100).toFixed(1))}`;
  const lines = [
    `95% CI: ${[...methods].map((method) => METHOD_TEXT[method] ?? method).join('; ')}. n: the docs each metric covers.`,
  ];
  for (const column of columns) {
    for (const wide of wideIntervals(source, column, options)) {
      const [metric] = wide.metric.split(',');
      const how =
        wide.by === 'wilson'
          ? `Wilson score width at the observed ${Number(wide.value.toFixed(4))}`
          : 'the observed width scaled by √(n / n′)';
      lines.push(
        `${wide.name}: ${metric}'s 95% interval ${formatInterval(wide.interval)} is wider than ±${points(widerThan)} points (n=${wide.n}); ±${points(target)} points needs about ${groupedDigits(wide.needed)} docs (${how}).`,
      );
    }
  }
  return lines;
}
