import type { ReadResults } from '../results/schema.js';
import type { MetricRow, PrimaryScore, RunDetail, RunSummary } from './api.js';
import { manifestSections } from './manifest-view.js';

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function intervalOrNull(value: unknown): [number, number] | null {
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'number' &&
    typeof value[1] === 'number'
  ) {
    return [value[0], value[1]];
  }
  return null;
}

/** `<metric>,<filter>` keys of one results entry, in file order; stderr and CI keys ride along. */
function rowsOf(
  kind: MetricRow['kind'],
  name: string,
  entry: Record<string, unknown>,
  higherIsBetter: Record<string, boolean> | undefined,
  n: number | null,
): MetricRow[] {
  const rows: MetricRow[] = [];
  for (const [key, value] of Object.entries(entry)) {
    const comma = key.indexOf(',');
    if (comma < 0) continue;
    const metric = key.slice(0, comma);
    const filter = key.slice(comma + 1);
    if (metric.endsWith('_stderr') || metric.endsWith('_ci')) continue;
    rows.push({
      kind,
      name,
      alias: typeof entry.alias === 'string' ? entry.alias : name,
      metric,
      filter,
      value: numberOrNull(value),
      stderr: numberOrNull(entry[`${metric}_stderr,${filter}`]),
      ci: intervalOrNull(entry[`${metric}_ci,${filter}`]),
      higherIsBetter: higherIsBetter?.[metric] ?? null,
      n,
    });
  }
  return rows;
}

/**
 * Each task's primary score for the Runs page's matrix: the first `metric,filter` of its results entry
 * (the metric compare and gate default to), read by the same rows as the Run page.
 */
export function primaryScores(results: ReadResults, tasks: string[]): Record<string, PrimaryScore> {
  const scores: Record<string, PrimaryScore> = {};
  for (const task of tasks) {
    const entry = results.results[task] ?? results.groups?.[task];
    if (!entry) continue;
    const [first] = rowsOf('task', task, entry, results.higher_is_better[task], null);
    if (!first) continue;
    const { metric, filter, value, stderr, ci, higherIsBetter } = first;
    scores[task] = { metric, filter, value, stderr, ci, higherIsBetter };
  }
  return scores;
}

/**
 * The Run page's data: one row per task/group × metric × filter, in the results file's order. `run` is a
 * discovered run (discover.ts, which imports this file for primaryScores), by the fields read here.
 */
export function runDetail(run: { summary: RunSummary; results: ReadResults }): RunDetail {
  const { results } = run;
  const groups = results.groups ?? {};
  const rows: MetricRow[] = [];
  const seen = new Set<string>();
  for (const [name, entry] of Object.entries(results.results)) {
    seen.add(name);
    const isGroup = name in groups;
    const n = isGroup
      ? numberOrNull(groups[name].sample_count)
      : (results['n-samples'][name]?.effective ?? numberOrNull(entry.sample_len));
    rows.push(
      ...rowsOf(
        isGroup ? 'group' : 'task',
        name,
        isGroup ? { ...entry, ...groups[name], alias: entry.alias } : entry,
        results.higher_is_better[name],
        n,
      ),
    );
  }
  // Tags aggregate without a results entry of their own.
  for (const [name, entry] of Object.entries(groups)) {
    if (!seen.has(name))
      rows.push(
        ...rowsOf('group', name, entry, results.higher_is_better[name], numberOrNull(entry.sample_count)),
      );
  }
  const seconds = Number(results.total_evaluation_time_seconds);
  return {
    run: run.summary,
    rows,
    manifest: results.manifest ?? null,
    manifestSections: manifestSections(results.manifest),
    config: results.config,
    nShot: results['n-shot'],
    versions: results.versions,
    totalSeconds: Number.isFinite(seconds) ? seconds : null,
  };
}
