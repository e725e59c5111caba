/**
 * A task's column of the summary: the models ranked with simultaneous 95% rank intervals (joint bootstrap
 * over the docs every model scored), the head-to-head matrix (each pair on the docs both scored, p-values
 * Holm-adjusted over the matrix) and the minimum detectable difference at the task's n.
 */
import type { HeadToHead, PairEntry, TaskSummary } from '../../results/suite-summary.js';
import { sampleVariance } from '../../stats/descriptive.js';
import { adjustPValues } from '../../stats/p-value-adjustment.js';
import { minimumDetectableEffect } from '../../stats/power.js';
import { allPairs, pairOutcomes, rankIntervals } from '../../stats/rank-intervals.js';
import type { TaskColumn } from './collect.js';
import { pairTest } from './pair-test.js';
import { type BootstrapSettings, familyIntervals } from './paired-intervals.js';
import { alignedScores, meanOf, pointRanks, sharedKeys } from './shared-docs.js';

/** Models (indices) of a column with per-doc scores. */
export function scoredModels(column: TaskColumn): number[] {
  return column.cells.flatMap((cell, index) => (cell.scores && cell.scores.size > 0 ? [index] : []));
}

export function headToHeadMatrix(
  scope: HeadToHead['scope'],
  name: string,
  metric: string,
  higherIsBetter: boolean,
  models: string[],
  pairsOf: (i: number, j: number) => { a: Float64Array; b: Float64Array },
  present: number[],
  settings: BootstrapSettings,
): HeadToHead {
  if (present.length < 2)
    return {
      scope,
      name,
      metric,
      higher_is_better: higherIsBetter,
      pairs: [],
      reason: 'fewer than two models with sample scores',
    };
  const entries: Array<Omit<PairEntry, 'p_holm'>> = [];
  for (const [x, y] of allPairs(present.length)) {
    const [i, j] = [present[x], present[y]];
    const { a, b } = pairsOf(i, j);
    if (a.length === 0) continue;
    const tested = pairTest(a, b, { confidence: settings.confidence, seed: settings.seed });
    entries.push({
      a: models[i],
      b: models[j],
      n: tested.n,
      difference: tested.difference,
      ci: tested.ci,
      p_value: tested.pValue,
      test: tested.test,
    });
  }
  const adjusted = adjustPValues(
    entries.map((entry) => entry.p_value),
    'holm',
  );
  return {
    scope,
    name,
    metric,
    higher_is_better: higherIsBetter,
    pairs: entries.map((entry, index) => ({ ...entry, p_holm: adjusted[index] })),
    reason: entries.length ? null : 'no docs scored by two models',
  };
}

export function taskStatistics(
  column: TaskColumn,
  models: string[],
  settings: BootstrapSettings,
): { summary: TaskSummary; headToHead: HeadToHead } {
  const present = scoredModels(column);
  const maps = present.map((index) => column.cells[index].scores as Map<string, number>);
  const keys = sharedKeys(maps);
  const aligned = alignedScores(maps, keys);
  const values = aligned.map(meanOf);
  let ranks: TaskSummary['ranks'] = [];
  let mdd: number | null = null;
  if (present.length >= 1 && keys.length >= 1) {
    const points = pointRanks(values, column.higherIsBetter);
    let intervals = present.map(() => ({ best: 1, worst: 1 }));
    if (present.length >= 2 && keys.length >= 2) {
      const family = familyIntervals([aligned], [(means, k) => means[0][k]], present.length, settings);
      intervals = rankIntervals(
        present.length,
        pairOutcomes(present.length, family.low[0], family.high[0], column.higherIsBetter),
      );
      // ω²: the mean variance of the paired differences over the pairs (Miller 2024 eq. 10 at the suite's n).
      const variances = allPairs(present.length).map(([i, j]) =>
        sampleVariance(Float64Array.from(aligned[i], (value, d) => aligned[j][d] - value)),
      );
      const omega2 = meanOf(variances);
      mdd = omega2 > 0 ? minimumDetectableEffect(keys.length, { omega2 }) : null;
    }
    ranks = present.map((index, k) => ({
      model: models[index],
      value: values[k],
      rank: { point: points[k], best: intervals[k].best, worst: intervals[k].worst },
    }));
  }
  const headToHead = headToHeadMatrix(
    'task',
    column.task,
    column.metric,
    column.higherIsBetter,
    models,
    (i, j) => {
      const pair = [
        column.cells[i].scores as Map<string, number>,
        column.cells[j].scores as Map<string, number>,
      ];
      const [a, b] = alignedScores(pair, sharedKeys(pair));
      return { a, b };
    },
    present,
    settings,
  );
  return {
    summary: {
      task: column.task,
      task_set: column.taskSet,
      metric: column.metric,
      filter: column.filter,
      higher_is_better: column.higherIsBetter,
      shared_n: keys.length,
      minimum_detectable_difference: mdd,
      ranks,
    },
    headToHead,
  };
}
