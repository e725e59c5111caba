/**
 * A scenario group's rows of the summary, over its tasks:
 * - the macro average of each model (the unweighted mean of its task values) with a normal 95% interval
 *   from the tasks' stderrs (√Σseᵢ²/k: tasks are independent samples), only when every task reports the
 *   same metric in the same direction; a group of unlike metrics gets none, and says why;
 * - HELM's mean win rate (stats/win-rate.ts) from the task values, whatever the metrics, with an interval
 *   that holds with 95% together for every model: simultaneous intervals on every pair of models on every
 *   task of the group (joint bootstrap over docs), turned into win-rate bounds (stats/rank-intervals.ts);
 * - rank intervals of the macro average (like metrics), from simultaneous intervals on its pairwise
 *   differences;
 * - a head-to-head matrix on the group's docs pooled over its tasks (like metrics).
 */
import type { GroupSummary, HeadToHead } from '../../results/suite-summary.js';
import { unweightedMeanStderr } from '../../stats/group-stderr.js';
import { normalInterval } from '../../stats/normal-interval.js';
import { pairOutcomes, rankIntervals, winRateBounds } from '../../stats/rank-intervals.js';
import { meanWinRates } from '../../stats/win-rate.js';
import type { TaskColumn } from './collect.js';
import { type BootstrapSettings, familyIntervals } from './paired-intervals.js';
import { alignedScores, meanOf, pointRanks, sharedKeys } from './shared-docs.js';
import { headToHeadMatrix, scoredModels } from './task-statistics.js';

/** Why the tasks' metrics cannot be averaged together, or null when they can. */
function unlikeReason(columns: TaskColumn[]): string | null {
  const kinds = new Map<string, string[]>();
  for (const column of columns) {
    const kind = `${column.metric || '(no metric)'}${column.higherIsBetter ? '' : ' (lower is better)'}`;
    kinds.set(kind, [...(kinds.get(kind) ?? []), column.task]);
  }
  if (kinds.size <= 1)
    return columns.some((column) => !column.metric) ? 'no finished run reports a metric' : null;
  return `its tasks report different metrics (${[...kinds].map(([kind, tasks]) => `${kind}: ${tasks.join(', ')}`).join('; ')}), and a mean over unlike metrics means nothing`;
}

export function groupStatistics(
  group: string,
  columns: TaskColumn[],
  models: string[],
  settings: BootstrapSettings,
): { summary: GroupSummary; headToHead: HeadToHead } {
  const reason = unlikeReason(columns);
  const like = reason === null;
  const values = models.map((_, k) => columns.map((column) => column.cells[k].summary.value));
  const winRates = meanWinRates(
    values,
    columns.map((column) => column.higherIsBetter),
  );

  // Models with per-doc scores on every task of the group; the paired statistics need all of them.
  const complete = models.flatMap((_, k) =>
    columns.every((column) => scoredModels(column).includes(k)) ? [k] : [],
  );
  const aligned = columns.map((column) => {
    const maps = complete.map((k) => column.cells[k].scores as Map<string, number>);
    return alignedScores(maps, sharedKeys(maps));
  });
  const pairedPossible = complete.length >= 2 && aligned.every((task) => (task[0]?.length ?? 0) >= 2);

  let winIntervals: Array<[number, number] | null> = models.map(() => null);
  const everyRanked = models.every((_, k) => winRates[k] === null || complete.includes(k));
  if (pairedPossible && everyRanked) {
    const family = familyIntervals(
      aligned,
      columns.map((_, t) => (means, k) => means[t][k]),
      complete.length,
      settings,
    );
    const bounds = columns.map((column, t) =>
      winRateBounds(
        complete.length,
        pairOutcomes(complete.length, family.low[t], family.high[t], column.higherIsBetter),
      ),
    );
    complete.forEach((model, k) => {
      winIntervals[model] = [
        meanOf(bounds.map((task) => task[k].low)),
        meanOf(bounds.map((task) => task[k].high)),
      ];
    });
  } else winIntervals = models.map(() => null);

  let ranks: Array<GroupSummary['models'][number]['rank']> = models.map(() => null);
  if (like && pairedPossible) {
    const macro = (means: ReadonlyArray<ArrayLike<number>>, k: number) =>
      meanOf(means.map((task) => task[k]));
    const family = familyIntervals(aligned, [macro], complete.length, settings);
    const higherIsBetter = columns[0].higherIsBetter;
    const intervals = rankIntervals(
      complete.length,
      pairOutcomes(complete.length, family.low[0], family.high[0], higherIsBetter),
    );
    const points = pointRanks(family.estimates[0], higherIsBetter);
    ranks = models.map(() => null);
    complete.forEach((model, k) => {
      ranks[model] = { point: points[k], best: intervals[k].best, worst: intervals[k].worst };
    });
  }

  const summaryModels = models.map((model, k) => {
    let macroAverage: GroupSummary['models'][number]['macro_average'] = null;
    const taskValues = values[k];
    if (like && taskValues.every((value) => value !== null)) {
      const stderrs = columns.map((column) => column.cells[k].stderr);
      const value = meanOf(taskValues as number[]);
      const ci = stderrs.every((stderr): stderr is number => stderr !== null)
        ? normalInterval(value, unweightedMeanStderr(stderrs), settings.confidence)
        : null;
      macroAverage = { value, ci: ci ? [ci.low, ci.high] : null };
    }
    return {
      model,
      macro_average: macroAverage,
      mean_win_rate: winRates[k],
      win_rate_interval: winIntervals[k],
      rank: ranks[k],
    };
  });

  const headToHead: HeadToHead = like
    ? headToHeadMatrix(
        'group',
        group,
        columns[0].metric,
        columns[0].higherIsBetter,
        models,
        (i, j) => {
          const a: number[] = [];
          const b: number[] = [];
          for (const column of columns) {
            const pair = [column.cells[i].scores, column.cells[j].scores];
            if (!pair[0] || !pair[1]) continue;
            const [left, right] = alignedScores(
              pair as Map<string, number>[],
              sharedKeys(pair as Map<string, number>[]),
            );
            a.push(...left);
            b.push(...right);
          }
          return { a: Float64Array.from(a), b: Float64Array.from(b) };
        },
        models.flatMap((_, k) => (columns.some((column) => scoredModels(column).includes(k)) ? [k] : [])),
        settings,
      )
    : { scope: 'group', name: group, metric: '', higher_is_better: true, pairs: [], reason };

  return {
    summary: {
      group,
      tasks: columns.map((column) => column.task),
      metric: like ? columns[0].metric : null,
      macro_average_reason: reason,
      models: summaryModels,
    },
    headToHead,
  };
}
