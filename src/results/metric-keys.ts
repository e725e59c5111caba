/** The `metric,filter` keys of a results entry, in file order (lm-eval's metric_list order). */
export interface MetricKey {
  metric: string;
  filter: string;
  /** The entry's key: `metric,filter`. */
  key: string;
}

/** Value keys only: `<metric>_stderr,<filter>` and `<metric>_ci,<filter>` ride along with their metric. */
export function metricKeysOf(entry: Record<string, unknown> | undefined): MetricKey[] {
  if (!entry) return [];
  const keys: MetricKey[] = [];
  for (const key of Object.keys(entry)) {
    const comma = key.indexOf(',');
    if (comma < 0) continue;
    const metric = key.slice(0, comma);
    if (metric.endsWith('_stderr') || metric.endsWith('_ci')) continue;
    keys.push({ metric, filter: key.slice(comma + 1), key });
  }
  return keys;
}
