/**
 * The Suite page's leaderboard, as data: lookups over a summary.json's leaderboard (cells, task ranks and
 * group rows by name), the models' order, and one model's pairs of a matrix turned to face it.
 * Pure and read-only over the summary (computed by `assay suite summarize`, never here): the web app
 * imports it, and nothing here needs Node.
 */
import type { GroupSummary, HeadToHead, SummaryCell, TaskSummary } from '../results/suite-summary.js';
import type { SuiteCellRun, SuiteLeaderboard } from './api.js';

type GroupModel = GroupSummary['models'][number];
type TaskRank = TaskSummary['ranks'][number];

/** The summary's parts by name, built once per summary (a 20 × 60 suite has 1,200 cells). */
export interface SuiteIndex {
  cell(model: string, task: string): SummaryCell | undefined;
  taskRank(task: string, model: string): TaskRank | undefined;
  task(task: string): TaskSummary | undefined;
  group(group: string): GroupSummary | undefined;
  groupRow(group: string, model: string): GroupModel | undefined;
  /** The task set of a task (from the cells). */
  taskSetOf(task: string): string | undefined;
}

const key = (a: string, b: string) => `${a}\u0000${b}`;

export function suiteIndex(summary: SuiteLeaderboard): SuiteIndex {
  const cells = new Map(summary.cells.map((cell) => [key(cell.model, cell.task), cell]));
  const taskSets = new Map(summary.cells.map((cell) => [cell.task, cell.task_set]));
  const tasks = new Map(summary.tasks.map((task) => [task.task, task]));
  const ranks = new Map(
    summary.tasks.flatMap((task) => task.ranks.map((entry) => [key(task.task, entry.model), entry])),
  );
  const groups = new Map(summary.groups.map((group) => [group.group, group]));
  const groupRows = new Map(
    summary.groups.flatMap((group) => group.models.map((row) => [key(group.group, row.model), row])),
  );
  return {
    cell: (model, task) => cells.get(key(model, task)),
    taskRank: (task, model) => ranks.get(key(task, model)),
    task: (task) => tasks.get(task),
    group: (group) => groups.get(group),
    groupRow: (group, model) => groupRows.get(key(group, model)),
    taskSetOf: (task) => taskSets.get(task),
  };
}

/** The tasks in the summary's order (task sets in run order, each set's tasks in order). */
export function suiteTasks(summary: SuiteLeaderboard): string[] {
  return [...new Set(summary.cells.map((cell) => cell.task))];
}

export type LeaderboardSort = { group: string } | null;

/**
 * The models in the suite's order, or by a group's mean win rate (highest first; a model without one
 * last, in the suite's order among themselves).
 */
export function sortedModels(summary: SuiteLeaderboard, index: SuiteIndex, sort: LeaderboardSort): string[] {
  const models = summary.models.map((model) => model.name);
  if (!sort) return models;
  const rate = (model: string) => index.groupRow(sort.group, model)?.mean_win_rate ?? null;
  return models
    .map((model, position) => ({ model, position, rate: rate(model) }))
    .sort(
      (a, b) =>
        (a.rate === null ? 1 : 0) - (b.rate === null ? 1 : 0) ||
        (b.rate ?? 0) - (a.rate ?? 0) ||
        a.position - b.position,
    )
    .map((entry) => entry.model);
}

/** One pair of a head-to-head matrix seen from one of its two models. */
export interface FacingPair {
  other: string;
  n: number;
  /** This model's mean − the other's, on the docs both scored. */
  difference: number;
  ci: [number, number];
  pValue: number;
  pHolm: number;
  test: string;
  /** Holm-adjusted p below 1 − confidence. */
  significant: boolean;
  /** Significant and in this model's favour by the metric's direction; null when not significant. */
  better: boolean | null;
}

/**
 * The matrix's pairs that involve `model`, each turned to read "this model − the other" (the file stores
 * B − A with its interval; for A the difference and the interval are negated and the interval's ends swap).
 */
export function facingPairs(matrix: HeadToHead, model: string, confidence: number): FacingPair[] {
  const alpha = 1 - confidence;
  return matrix.pairs
    .filter((pair) => pair.a === model || pair.b === model)
    .map((pair) => {
      const asB = pair.b === model;
      const difference = asB ? pair.difference : -pair.difference;
      const ci: [number, number] = asB ? [pair.ci[0], pair.ci[1]] : [-pair.ci[1], -pair.ci[0]];
      const significant = pair.p_holm < alpha;
      return {
        other: asB ? pair.a : pair.b,
        n: pair.n,
        difference,
        ci,
        pValue: pair.p_value,
        pHolm: pair.p_holm,
        test: pair.test,
        significant,
        better: significant ? (matrix.higher_is_better ? difference > 0 : difference < 0) : null,
      };
    });
}

/** The run each cell wrote, by model and task set. */
export function cellRunIndex(
  cellRuns: SuiteCellRun[],
): (model: string, taskSet: string) => SuiteCellRun | undefined {
  const runs = new Map(cellRuns.map((cell) => [key(cell.model, cell.taskSet), cell]));
  return (model, taskSet) => runs.get(key(model, taskSet));
}

/** `2 (1–3)`: a rank and its simultaneous interval; one place when the interval is resolved. */
export function rankText(rank: { point: number; best: number; worst: number } | null | undefined): string {
  if (!rank) return '—';
  return `${rank.point} (${rank.best === rank.worst ? rank.best : `${rank.best}–${rank.worst}`})`;
}
