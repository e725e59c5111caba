/**
 * The Runs page's results matrix, as data: runs (rows, grouped by model) × tasks (columns), each cell a
 * task's primary score with its interval, the ★ of a column (computed by the server, best-runs.ts) and,
 * against a chosen baseline, the cells whose paired test (the compare page's, src/view/compare.ts) is
 * significant after Holm's adjustment. Pure: the web app imports it, and nothing here needs Node.
 */
import type { CompareResponse, PrimaryScore, RunSummary, StarsResponse, TaskStar } from './api.js';

export const MATRIX_ALPHA = 0.05;

export interface MatrixColumn {
  task: string;
  /** The `metric,filter` most runs report first for this task: the one cells are ranked on. */
  metric: string;
  filter: string;
  higherIsBetter: boolean | null;
}

export type MatrixSortKey = 'model' | 'date' | 'gitHash' | 'partial' | `task:${string}`;

export interface MatrixSort {
  key: MatrixSortKey;
  descending: boolean;
}

export interface Significance {
  difference: number;
  pValue: number;
  adjustedPValue: number;
  significant: boolean;
  /** better / worse by the metric's direction; `changed` when its direction is unknown. */
  direction: 'better' | 'worse' | 'changed' | null;
}

/** Tasks in the order runs list them; each ranked on its most common primary metric. */
export function matrixColumns(runs: RunSummary[]): MatrixColumn[] {
  const counts = new Map<string, Map<string, { score: PrimaryScore; count: number }>>();
  for (const run of runs) {
    for (const task of run.tasks) {
      const score = run.scores[task];
      if (!score) continue;
      const byMetric = counts.get(task) ?? new Map();
      const key = `${score.metric},${score.filter}`;
      const entry = byMetric.get(key) ?? { score, count: 0 };
      entry.count++;
      byMetric.set(key, entry);
      counts.set(task, byMetric);
    }
  }
  return [...counts].map(([task, byMetric]) => {
    const [{ score }] = [...byMetric.values()].sort((a, b) => b.count - a.count);
    return { task, metric: score.metric, filter: score.filter, higherIsBetter: score.higherIsBetter };
  });
}

/** The run's score in a column, when it reports the column's metric. */
export function cellScore(run: RunSummary, column: MatrixColumn): PrimaryScore | undefined {
  const score = run.scores[column.task];
  return score && score.metric === column.metric && score.filter === column.filter ? score : undefined;
}

/** The column's ★ entry, when the server's ranking was made on the column's metric. */
export function starOf(stars: StarsResponse | undefined, column: MatrixColumn): TaskStar | undefined {
  return stars?.stars.find(
    (star) => star.task === column.task && star.metric === column.metric && star.filter === column.filter,
  );
}

/**
 * The name a row shows: a file path (a GGUF, a local checkpoint) by its last part, anything else (a Hub
 * id `org/model`, a served model's name) as it is. The full name and the args are the row's tooltip.
 */
export function shortModelName(model: string): string {
  if (!/^(\/|\.{1,2}\/|~\/|[A-Za-z]:\\)/.test(model)) return model;
  const parts = model.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? model;
}

/**
 * What tells a model's runs apart: per run, the model args whose values differ between the runs of its
 * group (`seed=2`), an arg missing from a run counting as different. A group of one run shows none.
 */
export function distinguishingArgs(runs: RunSummary[]): Map<string, string> {
  const keys = new Set(runs.flatMap((run) => run.modelArgEntries.map((entry) => entry.key)));
  const argValue = (run: RunSummary, key: string) =>
    run.modelArgEntries.find((entry) => entry.key === key)?.value;
  const differing = [...keys].filter((key) => new Set(runs.map((run) => argValue(run, key))).size > 1);
  return new Map(
    runs.map((run) => [
      run.id,
      run.modelArgEntries
        .filter((entry) => differing.includes(entry.key))
        .map((entry) => `${entry.key}=${entry.value}`)
        .join(', '),
    ]),
  );
}

/** The paired test of `runId` against the comparison's baseline in this column, if one was made. */
export function significance(
  compare: CompareResponse | undefined,
  column: MatrixColumn,
  runId: string,
): Significance | undefined {
  const row = compare?.rows.find(
    (entry) =>
      entry.candidateRun === runId &&
      entry.task === column.task &&
      entry.metric === column.metric &&
      entry.filter === column.filter,
  );
  if (!row) return undefined;
  const significant = row.adjustedPValue < MATRIX_ALPHA && row.difference !== 0;
  const direction = !significant
    ? null
    : column.higherIsBetter === null
      ? 'changed'
      : row.difference > 0 === column.higherIsBetter
        ? 'better'
        : 'worse';
  return {
    difference: row.difference,
    pValue: row.pValue,
    adjustedPValue: row.adjustedPValue,
    significant,
    direction,
  };
}

/** The runs a baseline can be paired with: those sharing a logged task with it. */
export function pairableRuns(runs: RunSummary[], baseline: RunSummary): RunSummary[] {
  const logged = new Set(baseline.sampleTasks);
  return runs.filter((run) => run.id !== baseline.id && run.sampleTasks.some((task) => logged.has(task)));
}

function sortValue(run: RunSummary, key: MatrixSortKey): string | number | undefined {
  if (key === 'date') return run.date;
  if (key === 'partial') return run.partial ? 1 : 0;
  if (key === 'model') return `${run.model} ${run.modelArgs}`;
  if (key === 'gitHash') return run.gitHash ?? '';
  const value = run.scores[key.slice('task:'.length)]?.value;
  return value === null ? undefined : value;
}

function compareRuns(a: RunSummary, b: RunSummary, sort: MatrixSort): number {
  const x = sortValue(a, sort.key);
  const y = sortValue(b, sort.key);
  // A run without the value sorts last whichever the direction.
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
  return (x < y ? -1 : x > y ? 1 : 0) * (sort.descending ? -1 : 1);
}

/**
 * Runs grouped by model (model name): rows sorted within each group, and the groups ordered by their
 * first row under the same sort, so sorting a task column puts the model with the best run on top.
 */
export function groupByModel(runs: RunSummary[], sort: MatrixSort): { model: string; runs: RunSummary[] }[] {
  const groups = new Map<string, RunSummary[]>();
  for (const run of runs) groups.set(run.model, [...(groups.get(run.model) ?? []), run]);
  const sorted = [...groups].map(([model, members]) => ({
    model,
    runs: [...members].sort((a, b) => compareRuns(a, b, sort)),
  }));
  return sorted.sort((a, b) => compareRuns(a.runs[0], b.runs[0], sort) || a.model.localeCompare(b.model));
}
