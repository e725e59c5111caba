/**
 * Every `metric,filter` of a results file, with its stderr and interval, as numbers: the values a
 * tracking system stores. Entries that are not metrics (`alias`, `name`, `sample_len`, notes) and values
 * that are not finite numbers (lm-eval's "N/A" stderr) are left out.
 */
import type { ReadResults } from '../results/schema.js';

export interface MetricPoint {
  /** Task or group name. */
  scope: string;
  metric: string;
  filter: string;
  value: number;
  stderr?: number;
  /** The interval results.json gives as `<metric>_ci,<filter>`: [low, high]. */
  interval?: [number, number];
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function entryMetrics(scope: string, entry: Record<string, unknown>): MetricPoint[] {
  const points: MetricPoint[] = [];
  for (const [key, value] of Object.entries(entry)) {
    const comma = key.indexOf(',');
    if (comma < 0 || !finite(value)) continue;
    const metric = key.slice(0, comma);
    const filter = key.slice(comma + 1);
    if (metric.endsWith('_stderr') || metric.endsWith('_ci')) continue;
    const point: MetricPoint = { scope, metric, filter, value };
    const stderr = entry[`${metric}_stderr,${filter}`];
    if (finite(stderr)) point.stderr = stderr;
    const interval = entry[`${metric}_ci,${filter}`];
    if (Array.isArray(interval) && interval.length === 2 && interval.every(finite))
      point.interval = [interval[0], interval[1]];
    points.push(point);
  }
  return points;
}

/** Tasks first, in the results file's order, then groups not already listed among them. */
export function metricPoints(results: ReadResults): MetricPoint[] {
  const points: MetricPoint[] = [];
  const seen = new Set<string>();
  for (const block of [results.results, results.groups ?? {}]) {
    for (const [scope, entry] of Object.entries(block)) {
      if (seen.has(scope)) continue;
      seen.add(scope);
      points.push(...entryMetrics(scope, entry));
    }
  }
  return points;
}
