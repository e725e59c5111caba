/**
 * leaderboard_<time>.json, a compact per-task summary derived from the results file (and the sample
 * logs, for the correct counts, per-example scores and predictions): per task the primary metric (the
 * task's first under its first filter, as compare and gate default to) with its direction, scale, value,
 * 95% interval and n, the errored and timed-out docs, and the task's own request latency.
 *
 * `overall` is the mean of the task values only when every task's primary metric has the same scale and
 * direction; otherwise it is null and `overall_note` says why. A predict-only run scored nothing, so no
 * task has a value. A JSONL file whose lines name different metrics is scored per line: its value is
 * the mean of the per-line scores (each in [0, 1]), with each metric's own mean beside it.
 */

import { proportionScale } from '../metrics/judge-scale.js';
import { metricScale } from '../metrics/scale.js';
import { isBinary, mean, meanStderr } from '../stats/descriptive.js';
import { meanScoreInterval } from '../stats/score-interval.js';
import { MIXED_SCORE } from '../tasks/jsonl-task.js';
import { metricKeysOf } from './metric-keys.js';
import type { Leaderboard, LeaderboardTask } from './schema.js';
import { LEADERBOARD_SCHEMA } from './schema-versions.js';

/** What the leaderboard reads of a results file: the writer's ResultsFile and a read file both fit. */
export interface LeaderboardSource {
  results: Record<string, Record<string, unknown>>;
  higher_is_better: Record<string, Record<string, boolean>>;
  configs: Record<string, unknown>;
  'n-samples': Record<string, unknown>;
  model_name?: string | null;
  model_source?: string | null;
  date?: number | null;
  partial?: boolean;
  config?: { limit?: unknown };
  stats?: Record<string, Record<string, { n: number; ci_level?: number | null }>>;
  /** task → its judge reports (results.json `judges`): a judged metric's scale. */
  judges?: Record<string, Array<{ metric: string; mode?: unknown; verdict?: unknown }>>;
  errors?: { by_task: Record<string, number> };
  request_stats?: {
    by_task?: Record<
      string,
      { requests: number; mean_ms: number | null; p50_ms: number | null; p95_ms: number | null }
    >;
  };
  manifest?: { tasks?: Record<string, { sha256?: string | null; format?: string | null }> };
}

/** The fields of a sample line the leaderboard reads. */
export interface LeaderboardLine {
  doc_id: number;
  filter: string;
  metrics: string[];
  target: unknown;
  filtered_resps: unknown[];
  error?: string;
  /** Over the latency cap: in no metric. */
  timed_out?: true;
  [metric: string]: unknown;
}

export interface LeaderboardInput {
  results: LeaderboardSource;
  /** task → its sample lines; tasks without lines get no correct count and no examples. */
  samples?: Record<string, LeaderboardLine[]>;
  includePerExample?: boolean;
  /** The results file's name, beside the leaderboard. */
  resultsFile?: string | null;
}

/** A line's own metric: in a mixed file the run also logs the task score (`score`) beside it. */
const ownMetric = (line: LeaderboardLine): string | undefined =>
  line.metrics.find((metric) => metric !== MIXED_SCORE);

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A line's score as a number: booleans as 0/1; undefined when the line has none. */
function scoreOf(line: LeaderboardLine, metric: string): number | undefined {
  if (line.error !== undefined || line.timed_out === true) return undefined;
  const value = line[metric];
  if (typeof value === 'boolean') return value ? 1 : 0;
  return finite(value) ? value : undefined;
}

/** The interval aggregation gives a mean of these values: Wilson for 0/1 scores, t otherwise. */
function meanInterval(values: number[]): [number, number] | null {
  if (values.length === 0 || (values.length < 2 && !isBinary(values))) return null;
  const { low, high } = meanScoreInterval(values);
  return [low, high];
}

/** Leaf tasks in run order: n-samples is written in plan order; lm-eval files without it use configs. */
function leafTasks(results: LeaderboardSource): string[] {
  const ordered = Object.keys(results['n-samples']);
  return ordered.length ? ordered : Object.keys(results.configs);
}

/**
 * A JSONL file whose lines name different metrics: each line scored by its own metric. The value is
 * the mean of those scores, which is also each metric's mean weighted by its lines. A run records it
 * as the task's `score` metric (tasks/jsonl-task.ts), read as it is; for results without one it is
 * computed here from the lines (or, without lines, from the weighted means, exactly).
 */
function mixedJsonl(
  entry: Record<string, unknown>,
  stats: Record<string, { n: number; ci_level?: number | null }> | undefined,
  lines: LeaderboardLine[] | undefined,
  filter: string,
): Pick<LeaderboardTask, 'value' | 'stderr' | 'ci' | 'ci_level' | 'n' | 'correct' | 'metrics'> & {
  scores: Array<{ line: LeaderboardLine; score: number }> | null;
} {
  const metrics: NonNullable<LeaderboardTask['metrics']> = {};
  let weighted = 0;
  let n = 0;
  for (const { metric, key } of metricKeysOf(entry)) {
    if (metric === MIXED_SCORE) continue;
    const value = entry[key];
    const count = stats?.[key]?.n ?? 0;
    metrics[metric] = { value: finite(value) ? value : null, n: count };
    if (finite(value)) {
      weighted += value * count;
      n += count;
    }
  }
  const scores: Array<{ line: LeaderboardLine; score: number }> = [];
  for (const line of lines ?? []) {
    const own = ownMetric(line);
    const score = own === undefined ? undefined : scoreOf(line, own);
    if (score !== undefined) scores.push({ line, score });
  }
  const values = scores.map((entry) => entry.score);
  // The run's own task score (`score`, jsonl-task.ts), with the interval aggregation gave it.
  const recorded = entry[`${MIXED_SCORE},${filter}`];
  if (finite(recorded)) {
    const stderr = entry[`${MIXED_SCORE}_stderr,${filter}`];
    const interval = entry[`${MIXED_SCORE}_ci,${filter}`];
    const ci =
      Array.isArray(interval) && interval.length === 2 && interval.every(finite)
        ? ([interval[0], interval[1]] as [number, number])
        : null;
    const own = stats?.[`${MIXED_SCORE},${filter}`];
    return {
      value: recorded,
      stderr: finite(stderr) ? stderr : null,
      ci,
      ci_level: ci ? (own?.ci_level ?? 0.95) : null,
      n: own?.n ?? (lines ? values.length : n),
      correct:
        lines && isBinary(values) && values.length ? values.filter((value) => value === 1).length : null,
      metrics,
      scores: lines ? scores : null,
    };
  }
  // Results written before the run recorded a task score: computed here from the lines, or, without
  // them, each metric's mean weighted by its lines (the same mean).
  if (!lines) {
    return {
      value: n ? weighted / n : null,
      stderr: null,
      ci: null,
      ci_level: null,
      n,
      correct: null,
      metrics,
      scores: null,
    };
  }
  const ci = meanInterval(values);
  const stderr = values.length >= 2 ? meanStderr(values) : null;
  return {
    value: values.length ? mean(values) : null,
    stderr: stderr !== null && Number.isFinite(stderr) ? stderr : null,
    ci,
    ci_level: ci ? 0.95 : null,
    n: values.length,
    correct: isBinary(values) && values.length ? values.filter((value) => value === 1).length : null,
    metrics,
    scores,
  };
}

/** The results' report of the judge that scores `metric` of `task` (YAML or TypeScript judges alike), if any. */
function judgeOf(results: LeaderboardSource, task: string, metric: string): unknown {
  return results.judges?.[task]?.find((report) => report.metric === metric);
}

function taskEntry(
  results: LeaderboardSource,
  task: string,
  lines: LeaderboardLine[] | undefined,
  includePerExample: boolean,
): LeaderboardTask | undefined {
  const entry = results.results[task];
  const [primary] = metricKeysOf(entry);
  if (!entry || !primary) return undefined;
  const stats = results.stats?.[task];
  const errors = results.errors?.by_task[task] ?? 0;
  const timeouts = finite(entry.timeouts) ? entry.timeouts : 0;
  const common = {
    errors,
    timeouts,
    latency: results.request_stats?.by_task?.[task] ?? null,
    sha256: results.manifest?.tasks?.[task]?.sha256 ?? null,
    ...(errors + timeouts > 0 ? { partial: true as const } : {}),
  };
  const primaryLines = lines?.filter((line) => line.filter === primary.filter);
  const lineMetrics = new Set(primaryLines?.map(ownMetric));
  const jsonl = results.manifest?.tasks?.[task]?.format === 'jsonl';
  if (jsonl && (metricKeysOf(entry).length > 1 || lineMetrics.size > 1)) {
    const { scores, ...mixed } = mixedJsonl(entry, stats, primaryLines, primary.filter);
    return {
      metric: 'score',
      filter: primary.filter,
      higher_is_better: true,
      scale: '[0, 1]',
      ...mixed,
      ...common,
      ...(includePerExample && scores
        ? {
            examples: scores.map(({ line, score }) => ({
              doc_id: line.doc_id,
              prediction: line.filtered_resps.length === 1 ? line.filtered_resps[0] : line.filtered_resps,
              target: line.target,
              score,
            })),
          }
        : {}),
    };
  }
  // lm-eval's --predict_only placeholder (`bypass` = 999) is not a score.
  const predictOnly = primary.metric === 'bypass';
  const raw = entry[primary.key];
  const value = predictOnly || !finite(raw) ? null : raw;
  const stderr = entry[`${primary.metric}_stderr,${primary.filter}`];
  const interval = entry[`${primary.metric}_ci,${primary.filter}`];
  const ci =
    !predictOnly && Array.isArray(interval) && interval.length === 2 && interval.every(finite)
      ? ([interval[0], interval[1]] as [number, number])
      : null;
  const scored = primaryLines?.map((line) => scoreOf(line, primary.metric)).filter(finite) ?? [];
  // A judge's 1 on a 1–5 rubric is its worst grade, not a correct answer (judge-scale.ts).
  const binary =
    scored.length > 0 && isBinary(scored) && proportionScale(judgeOf(results, task, primary.metric));
  const n =
    stats?.[primary.key]?.n ??
    (primaryLines
      ? primaryLines.filter((line) => line.error === undefined && line.timed_out !== true).length
      : undefined) ??
    Math.max(0, (finite(entry.sample_len) ? entry.sample_len : 0) - errors - timeouts);
  return {
    metric: primary.metric,
    filter: primary.filter,
    higher_is_better: predictOnly ? null : (results.higher_is_better[task]?.[primary.metric] ?? null),
    scale: metricScale(primary.metric),
    value,
    stderr: !predictOnly && finite(stderr) ? stderr : null,
    ci,
    ci_level: ci ? (stats?.[primary.key]?.ci_level ?? 0.95) : null,
    n: predictOnly ? 0 : n,
    correct: !predictOnly && binary ? scored.filter((score) => score === 1).length : null,
    ...common,
    ...(includePerExample && primaryLines
      ? {
          examples: primaryLines.map((line) => ({
            doc_id: line.doc_id,
            prediction: line.filtered_resps.length === 1 ? line.filtered_resps[0] : line.filtered_resps,
            target: line.target,
            score: line[primary.metric],
          })),
        }
      : {}),
  };
}

const direction = (higherIsBetter: boolean | null) =>
  higherIsBetter === null ? 'direction unknown' : higherIsBetter ? 'higher is better' : 'lower is better';

/** `overall`: the mean of the task values when every primary metric shares scale and direction. */
function overall(
  tasks: Record<string, LeaderboardTask>,
  predictOnly: boolean,
): Pick<Leaderboard, 'overall' | 'overall_tasks' | 'overall_note'> {
  const none = (note: string) => ({ overall: null, overall_tasks: [], overall_note: note });
  const entries = Object.entries(tasks);
  if (predictOnly) return none('a predict-only run: nothing was scored');
  if (!entries.length) return none('no task has a score');
  const unscored = entries.filter(([, task]) => task.value === null).map(([name]) => name);
  if (unscored.length)
    return none(`not averaged: ${unscored.join(', ')} ${unscored.length > 1 ? 'have' : 'has'} no value`);
  const unknown = entries.filter(([, task]) => task.scale === null || task.higher_is_better === null);
  if (unknown.length) {
    return none(
      `not averaged: the scale or direction of ${unknown.map(([name, task]) => `${name}'s ${task.metric}`).join(', ')} is not known`,
    );
  }
  const kinds = new Set(entries.map(([, task]) => `${task.scale} ${task.higher_is_better}`));
  const [, first] = entries[0];
  if (kinds.size > 1) {
    return none(
      `not averaged: the tasks' primary metrics differ in scale or direction (${entries
        .map(
          ([name, task]) => `${name}: ${task.metric} on ${task.scale}, ${direction(task.higher_is_better)}`,
        )
        .join('; ')})`,
    );
  }
  const values = entries.map(([, task]) => task.value as number);
  return {
    overall: values.reduce((a, b) => a + b, 0) / values.length,
    overall_tasks: entries.map(([name]) => name),
    overall_note: `mean of the ${values.length} task values: every primary metric is on ${first.scale}, ${direction(first.higher_is_better)}`,
  };
}

export function buildLeaderboard(input: LeaderboardInput): Leaderboard {
  const { results } = input;
  const tasks: Record<string, LeaderboardTask> = {};
  for (const task of leafTasks(results)) {
    const entry = taskEntry(results, task, input.samples?.[task], input.includePerExample ?? false);
    if (entry) tasks[task] = entry;
  }
  const predictOnly =
    Object.keys(tasks).length > 0 && Object.values(tasks).every((task) => task.metric === 'bypass');
  const errors = Object.values(results.errors?.by_task ?? {}).reduce((sum, count) => sum + count, 0);
  const timeouts = Object.values(tasks).reduce((sum, task) => sum + task.timeouts, 0);
  return {
    schema: LEADERBOARD_SCHEMA,
    model: results.model_name ?? results.model_source ?? 'unknown model',
    date: results.date ?? null,
    results_file: input.resultsFile ?? null,
    partial: results.partial ?? typeof results.config?.limit === 'number',
    predict_only: predictOnly,
    errors,
    timeouts,
    tasks,
    ...overall(tasks, predictOnly),
  };
}
