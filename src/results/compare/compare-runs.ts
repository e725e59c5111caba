/**
 * `assay compare RUN_A RUN_B`: paired comparison of two runs, per task and per group. Task rows form one
 * family for the multiple-comparison adjustment (Holm by default, or Benjamini-Hochberg); group rows pool
 * the paired items of their leaf tasks (a micro average: every item weighs the same) and form a second
 * family, since they re-use the tasks' data. The viewer's compare page calls the same pairing and tests
 * (`compareLoadedRuns`), so both show the same numbers for the same two runs.
 */

import { adjustPValues } from '../../stats/p-value-adjustment.js';
import { loadRun } from '../read-run.js';
import { readSampleScores, type SampleScore } from '../read-samples.js';
import { type JudgeAgreement, judgeAgreement, judgeOf } from './judge-match.js';
import {
  type ComparisonTarget,
  type PairedScores,
  type PairingOptions,
  pairScores,
  type TimeoutTreatment,
} from './pair-samples.js';
import {
  comparePairedScores,
  type PairedComparison,
  type PairedComparisonOptions,
} from './paired-comparison.js';
import { type ComparedRun, selectTargets } from './select-targets.js';
import { type Outcome, verdict } from './verdict.js';

export type Adjustment = 'holm' | 'bh';

export interface CompareOptions extends PairedComparisonOptions, PairingOptions {
  tasks?: string[];
  metric?: string;
  adjustment?: Adjustment;
}

export interface FlipEntry {
  count: number;
  /** Run A's doc ids (`task/doc_id` in group rows). */
  docIds: Array<number | string>;
}

export interface ComparisonRow extends Omit<PairedComparison, 'flips'> {
  kind: 'task' | 'group';
  name: string;
  metric: string;
  filter: string;
  higherIsBetter: boolean;
  /** Leaf tasks pooled in a group row. */
  tasks?: string[];
  unpaired: { a: number; b: number };
  unscored: { a: number; b: number };
  /** Timed-out samples, scored as wrong or left out as `timeoutsAs` says. */
  timedOut: { a: number; b: number };
  pValueAdjusted: number;
  outcome: Outcome;
  verdict: string;
  flips?: { rightToWrong: FlipEntry; wrongToRight: FlipEntry };
  /**
   * A judge metric (one judge scored both runs, or the row is refused): that judge, and its agreement with
   * each run's labelled slice (κ, α, accuracy; null without a slice), to read beside the difference.
   */
  judge?: {
    model: string;
    rubricSha256: string;
    agreement: { a: JudgeAgreement[] | null; b: JudgeAgreement[] | null };
  };
}

export interface RunComparison {
  runA: { resultsFile: string; model: string | null };
  runB: { resultsFile: string; model: string | null };
  /** What timed-out docs counted as. */
  timeoutsAs: TimeoutTreatment;
  adjustment: Adjustment;
  alpha: number;
  power: number;
  tasks: ComparisonRow[];
  groups: ComparisonRow[];
  skipped: Array<{ task: string; reason: string }>;
}

const ADJUSTMENT_LABEL: Record<Adjustment, string> = { holm: 'Holm', bh: 'BH' };

/** One row's paired items, before the tests: a task's, or a group's pooled over its leaf tasks. */
export interface PooledPairs {
  name: string;
  kind: 'task' | 'group';
  target: ComparisonTarget;
  tasks?: string[];
  /** Per pair: run A's doc id (`task/doc_id` in group rows). */
  docIds: Array<number | string>;
  /** Task rows: per pair, each run's doc id (they differ when the runs ordered docs differently). */
  pairs?: Array<{ docIdA: number; docIdB: number }>;
  a: Float64Array;
  b: Float64Array;
  unpaired: { a: number; b: number };
  unscored: { a: number; b: number };
  timedOut: { a: number; b: number };
}

function concat(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Every test of each row, with the family's adjusted p-values and the verdicts. */
export function comparisonRows(
  pooled: PooledPairs[],
  options: CompareOptions,
  adjustment: Adjustment,
): ComparisonRow[] {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  const compared = pooled.map((entry) => comparePairedScores(entry.a, entry.b, options));
  const adjusted = compared.length
    ? adjustPValues(
        compared.map((result) => result.pValue),
        adjustment,
      )
    : [];
  return pooled.map((entry, i) => {
    const { flips, ...result } = compared[i];
    const judged = verdict({
      difference: result.difference,
      higherIsBetter: entry.target.higherIsBetter,
      pValueAdjusted: adjusted[i],
      alpha,
      power,
      n: result.n,
      minimumDetectableEffect: result.minimumDetectableEffect,
      adjustment: ADJUSTMENT_LABEL[adjustment],
    });
    const row: ComparisonRow = {
      kind: entry.kind,
      name: entry.name,
      metric: entry.target.metric,
      filter: entry.target.filter,
      higherIsBetter: entry.target.higherIsBetter,
      ...(entry.tasks ? { tasks: entry.tasks } : {}),
      ...result,
      unpaired: entry.unpaired,
      unscored: entry.unscored,
      timedOut: entry.timedOut,
      pValueAdjusted: adjusted[i],
      outcome: judged.outcome,
      verdict: judged.text,
    };
    if (flips) {
      const ids = (positions: number[]) => positions.map((position) => entry.docIds[position]);
      row.flips = {
        rightToWrong: { count: flips.rightToWrong.length, docIds: ids(flips.rightToWrong) },
        wrongToRight: { count: flips.wrongToRight.length, docIds: ids(flips.wrongToRight) },
      };
    }
    return row;
  });
}

/**
 * Pairs two runs' samples on the rows they are compared on (select-targets.ts): task rows, and group
 * rows pooling their leaf tasks' pairs. Rows with fewer than 2 pairs are listed in `skipped`.
 */
export function pairRuns(
  runA: ComparedRun,
  runB: ComparedRun,
  options: CompareOptions = {},
  samples: (file: string) => SampleScore[] = cachedReader(),
): { tasks: PooledPairs[]; groups: PooledPairs[]; skipped: RunComparison['skipped'] } {
  const selection = selectTargets(runA, runB, options);
  const paired: PairedScores[] = selection.targets.map((target) =>
    pairScores(
      samples(runA.sampleFiles.get(target.task) as string),
      samples(runB.sampleFiles.get(target.task) as string),
      target,
      options,
    ),
  );
  const taskEntries: PooledPairs[] = paired.map((pair) => ({
    name: pair.target.task,
    kind: 'task',
    target: pair.target,
    docIds: pair.docIds,
    pairs: pair.docIds.map((docIdA, i) => ({ docIdA, docIdB: pair.docIdsB[i] })),
    a: pair.a,
    b: pair.b,
    unpaired: { a: pair.unpairedA, b: pair.unpairedB },
    unscored: { a: pair.unscoredA, b: pair.unscoredB },
    timedOut: { a: pair.timedOutA, b: pair.timedOutB },
  }));
  const groupEntries: PooledPairs[] = [];
  for (const [group, leaves] of selection.groups) {
    const members = paired.filter((pair) => leaves.includes(pair.target.task));
    const keys = [...new Set(members.map((pair) => `${pair.target.metric},${pair.target.filter}`))];
    for (const key of keys) {
      const parts = members.filter((pair) => `${pair.target.metric},${pair.target.filter}` === key);
      const [metric, filter] = [key.slice(0, key.indexOf(',')), key.slice(key.indexOf(',') + 1)];
      groupEntries.push({
        name: group,
        kind: 'group',
        target: { task: group, metric, filter, higherIsBetter: parts[0].target.higherIsBetter },
        tasks: parts.map((pair) => pair.target.task),
        docIds: parts.flatMap((pair) => pair.docIds.map((id) => `${pair.target.task}/${id}`)),
        a: concat(parts.map((pair) => pair.a)),
        b: concat(parts.map((pair) => pair.b)),
        unpaired: {
          a: parts.reduce((total, pair) => total + pair.unpairedA, 0),
          b: parts.reduce((total, pair) => total + pair.unpairedB, 0),
        },
        unscored: {
          a: parts.reduce((total, pair) => total + pair.unscoredA, 0),
          b: parts.reduce((total, pair) => total + pair.unscoredB, 0),
        },
        timedOut: {
          a: parts.reduce((total, pair) => total + pair.timedOutA, 0),
          b: parts.reduce((total, pair) => total + pair.timedOutB, 0),
        },
      });
    }
  }
  const skipped = [...selection.skipped];
  for (const entry of [...taskEntries, ...groupEntries]) {
    if (entry.a.length < 2)
      skipped.push({ task: entry.name, reason: `only ${entry.a.length} paired samples` });
  }
  const enough = (entry: PooledPairs) => entry.a.length >= 2;
  return { tasks: taskEntries.filter(enough), groups: groupEntries.filter(enough), skipped };
}

/** Reads each sample log once per comparison (a group's leaves and both families share them). */
export function cachedReader(): (file: string) => SampleScore[] {
  const cache = new Map<string, SampleScore[]>();
  return (file) => {
    let lines = cache.get(file);
    if (!lines) {
      lines = readSampleScores(file);
      cache.set(file, lines);
    }
    return lines;
  };
}

const SHOWN_AGREEMENT = ['cohen_kappa', 'krippendorff_alpha', 'accuracy'] as const;

/** A judge metric's row with its judge and agreements (select-targets.ts has refused different judges). */
function withJudge(row: ComparisonRow, runA: ComparedRun, runB: ComparedRun): ComparisonRow {
  const judgeA = judgeOf(runA.results, row.name, row.metric);
  const judgeB = judgeOf(runB.results, row.name, row.metric);
  if (!judgeA || !judgeB) return row;
  const agreements = (judge: typeof judgeA) =>
    judge.statistics
      ? SHOWN_AGREEMENT.map((statistic) => judgeAgreement(judge, statistic) as JudgeAgreement)
      : null;
  return {
    ...row,
    judge: {
      model: judgeB.model,
      rubricSha256: judgeB.rubric_sha256,
      agreement: { a: agreements(judgeA), b: agreements(judgeB) },
    },
  };
}

/** Pairs two loaded runs and runs every test: tasks as one family, groups as another. */
export function compareLoadedRuns(
  runA: ComparedRun,
  runB: ComparedRun,
  options: CompareOptions = {},
  samples?: (file: string) => SampleScore[],
): RunComparison & { pooled: { tasks: PooledPairs[]; groups: PooledPairs[] } } {
  const adjustment = options.adjustment ?? 'holm';
  const pooled = pairRuns(runA, runB, options, samples);
  return {
    runA: { resultsFile: runA.resultsFile, model: runA.results.model_name ?? null },
    runB: { resultsFile: runB.resultsFile, model: runB.results.model_name ?? null },
    timeoutsAs: options.timeoutsAs ?? 'refuse',
    adjustment,
    alpha: options.alpha ?? 0.05,
    power: options.power ?? 0.8,
    tasks: comparisonRows(pooled.tasks, options, adjustment).map((row) => withJudge(row, runA, runB)),
    groups: comparisonRows(pooled.groups, options, adjustment),
    skipped: pooled.skipped,
    pooled: { tasks: pooled.tasks, groups: pooled.groups },
  };
}

/** `assay compare RUN_A RUN_B` on runs with sample logs: loads both, pairs their samples, runs every test. */
export function compareRuns(
  locationA: string,
  locationB: string,
  options: CompareOptions = {},
): RunComparison {
  const { pooled: _pooled, ...comparison } = compareLoadedRuns(
    loadRun(locationA),
    loadRun(locationB),
    options,
  );
  return comparison;
}
