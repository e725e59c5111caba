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
 * claim level 0.05, with no adjustment for the number of runs. Only the run with the best score is a
 * candidate (a full run's score is the mean its paired test compares; a candidate that is not the best
 * could only win on docs its score does not count, and is never starred): runs tied at the best score,
 * and a best score within the noise of another, get no star. Partial runs (--limit, --samples) neither get nor block a star: they cover part
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

export async function taskStars(runs: DiscoveredRun[]): Promise<StarsResponse> {
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

  const stars: TaskStar[] = [];
  for (const column of matrixColumns(runs.map((run) => run.summary))) {
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
    if (column.higherIsBetter === null) {
      stars.push(none('no ★: the metric’s direction (higher or lower is better) is not recorded'));
      continue;
    }
    if (entrants.length < 2) {
      stars.push(
        none(`no ★: a ★ needs two or more full runs scored on ${column.metric}; there is ${entrants.length}`),
      );
      continue;
    }
    // Best first. Only the best score can be significantly better than all the others (a full run's
    // score is the mean its paired test compares), so one candidate is tested, against the closest first.
    const direction = column.higherIsBetter ? -1 : 1;
    entrants.sort((a, b) => direction * (a.value - b.value));
    const [top, ...others] = entrants;
    const tied = others.filter((entry) => entry.value === top.value).length;
    if (tied > 0) {
      stars.push(none(`no ★: ${tied + 1} full runs share the best score, ${top.value}`));
      continue;
    }
    const beaten: Win[] = [];
    for (const { run: other } of others) {
      const win = beats(top.run, other, column);
      if (!win) break;
      beaten.push(win);
      // A pair of big logs takes a second or more: let the server answer other requests between them.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (beaten.length < others.length) {
      stars.push(
        none(
          `no ★: the best score is not significantly better than every other full run’s (${entrants.length} full runs)`,
        ),
      );
      continue;
    }
    const count = (method: Win['method']) => beaten.filter((win) => win.method === method).length;
    stars.push({
      ...base,
      run: top.run.summary.id,
      entrants: entrants.length,
      beaten,
      note: `★: significantly better than each of the ${beaten.length} other full run${beaten.length === 1 ? '' : 's'} (as \`assay compare\` reports: ${count('paired')} by the paired test on the sample logs, Holm-adjusted p < 0.05; ${count('intervals')} by the 95% interval of the difference, without sample logs)`,
    });
  }
  return { stars };
}
