/**
 * The ★ of each task column on the Runs page: the one full run that is significantly better than every
 * other full run with a score in the column, by what `assay compare OTHER RUN` reports for the task (the
 * same functions, so the page and the CLI cannot disagree):
 *
 * - both runs have the task's sample log: the paired test (compare-runs.ts, McNemar for 0/1 scores, else
 *   the permutation test; Holm over the pair's tasks), "B better";
 * - otherwise: the 95% interval of the difference from each run's interval (leaderboard-diff.ts, MOVER /
 *   Newcombe), "B better". A pair whose logs cannot be paired (no shared docs) is not "better".
 *
 * "Better than every other" is an intersection-union test: each comparison at level 0.05 gives the whole
 * claim level 0.05, with no adjustment for the number of runs. Ties (equal scores, or differences within
 * the noise) get no star. Partial runs (--limit, --samples) neither get nor block a star: they cover part
 * of the task, so their score ranks with nothing (the Runs page flags them). A column with fewer than two
 * full runs, or a metric of unknown direction, has none.
 */
import path from 'node:path';
import { AssayError } from '../errors.js';
import { cachedReader, compareLoadedRuns } from '../results/compare/compare-runs.js';
import { diffLeaderboards, type LeaderboardSide } from '../results/compare/leaderboard-diff.js';
import { buildLeaderboard } from '../results/leaderboard.js';
import type { StarsResponse, TaskStar } from './api.js';
import type { DiscoveredRun } from './discover.js';
import { cellScore, type MatrixColumn, matrixColumns } from './results-matrix.js';

type Win = TaskStar['beaten'][number];

export function taskStars(runs: DiscoveredRun[]): StarsResponse {
  const samples = cachedReader();
  const paired = new Map<string, ReturnType<typeof compareLoadedRuns> | null>();
  const sides = new Map<DiscoveredRun, LeaderboardSide>();

  /** `assay compare other run` with sample logs, once per ordered pair; null when it cannot pair them. */
  const pairedComparison = (other: DiscoveredRun, run: DiscoveredRun) => {
    const key = `${other.summary.id}>${run.summary.id}`;
    if (!paired.has(key)) {
      try {
        paired.set(key, compareLoadedRuns(other, run, {}, samples));
      } catch (error) {
        if (!(error instanceof AssayError)) throw error;
        paired.set(key, null);
      }
    }
    return paired.get(key);
  };

  // The leaderboard `assay compare` derives from a results file (the one written beside it holds the same
  // values), built from the file the viewer already read, so no link out of the viewed folder is followed.
  const sideOf = (run: DiscoveredRun): LeaderboardSide => {
    let side = sides.get(run);
    if (!side) {
      const leaderboard = buildLeaderboard({
        results: run.results,
        resultsFile: path.basename(run.resultsFile),
      });
      side = { file: run.resultsFile, leaderboard, run: undefined };
      sides.set(run, side);
    }
    return side;
  };

  /** Whether `run` is significantly better than `other` on the column, and by which comparison. */
  const beats = (run: DiscoveredRun, other: DiscoveredRun, column: MatrixColumn): Win | null => {
    const same = (row: { metric: string; filter: string }) =>
      row.metric === column.metric && row.filter === column.filter;
    if (run.sampleFiles.has(column.task) && other.sampleFiles.has(column.task)) {
      const row = pairedComparison(other, run)?.tasks.find(
        (entry) => entry.name === column.task && same(entry),
      );
      return row?.outcome === 'B better'
        ? { run: other.summary.id, method: 'paired', pValueAdjusted: row.pValueAdjusted }
        : null;
    }
    const row = diffLeaderboards(sideOf(other), sideOf(run)).tasks.find(
      (entry) => entry.task === column.task && same(entry),
    );
    return row?.change === 'B better'
      ? { run: other.summary.id, method: 'intervals', pValueAdjusted: null }
      : null;
  };

  const stars = matrixColumns(runs.map((run) => run.summary)).map((column): TaskStar => {
    const base = { task: column.task, metric: column.metric, filter: column.filter };
    const entrants = runs
      .filter((run) => !run.summary.partial)
      .map((run) => ({ run, value: cellScore(run.summary, column)?.value }))
      .filter((entry): entry is { run: DiscoveredRun; value: number } => typeof entry.value === 'number');
    const none = (note: string): TaskStar => ({
      ...base,
      run: null,
      entrants: entrants.length,
      beaten: [],
      note,
    });
    if (column.higherIsBetter === null)
      return none('no ★: the metric’s direction (higher or lower is better) is not recorded');
    if (entrants.length < 2)
      return none(
        `no ★: a ★ needs two or more full runs scored on ${column.metric}; there is ${entrants.length}`,
      );
    const direction = column.higherIsBetter ? -1 : 1;
    // Best first: the likely winner is tried first, and a loser fails on its first comparison.
    entrants.sort((a, b) => direction * (a.value - b.value));
    for (const { run } of entrants) {
      const beaten: Win[] = [];
      for (const { run: other } of entrants) {
        if (other === run) continue;
        const win = beats(run, other, column);
        if (!win) break;
        beaten.push(win);
      }
      if (beaten.length === entrants.length - 1) {
        const count = (method: Win['method']) => beaten.filter((win) => win.method === method).length;
        return {
          ...base,
          run: run.summary.id,
          entrants: entrants.length,
          beaten,
          note: `★: significantly better than each of the ${beaten.length} other full run${beaten.length === 1 ? '' : 's'} (as \`assay compare\` reports: ${count('paired')} by the paired test on the sample logs, Holm-adjusted p < 0.05; ${count('intervals')} by the 95% interval of the difference, without sample logs)`,
        };
      }
    }
    return none(
      `no ★: no full run is significantly better than every other full run (${entrants.length}) on this task`,
    );
  });
  return { stars };
}
