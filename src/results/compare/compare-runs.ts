/**
 * `assay compare RUN_A RUN_B`: paired comparison of two runs, per task and per group. Task rows form one
 * family for the multiple-comparison adjustment (Holm by default, or Benjamini-Hochberg); group rows pool
 * the paired items of their leaf tasks (a micro average: every item weighs the same) and form a second
 * family, since they re-use the tasks' data.
 */
import { adjustPValues } from '../../stats/p-value-adjustment.js';
import { loadRun } from '../read-run.js';
import { readSampleScores, type SampleScore } from '../read-samples.js';
import { type ComparisonTarget, type PairedScores, pairScores } from './pair-samples.js';
import {
  comparePairedScores,
  type PairedComparison,
  type PairedComparisonOptions,
} from './paired-comparison.js';
import { selectTargets } from './select-targets.js';
import { type Outcome, verdict } from './verdict.js';

export type Adjustment = 'holm' | 'bh';

export interface CompareOptions extends PairedComparisonOptions {
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
  pValueAdjusted: number;
  outcome: Outcome;
  verdict: string;
  flips?: { rightToWrong: FlipEntry; wrongToRight: FlipEntry };
}

export interface RunComparison {
  runA: { resultsFile: string; model: string | null };
  runB: { resultsFile: string; model: string | null };
  adjustment: Adjustment;
  alpha: number;
  power: number;
  tasks: ComparisonRow[];
  groups: ComparisonRow[];
  skipped: Array<{ task: string; reason: string }>;
}

const ADJUSTMENT_LABEL: Record<Adjustment, string> = { holm: 'Holm', bh: 'BH' };

interface Pooled {
  name: string;
  kind: 'task' | 'group';
  target: ComparisonTarget;
  tasks?: string[];
  docIds: Array<number | string>;
  a: Float64Array;
  b: Float64Array;
  unpaired: { a: number; b: number };
  unscored: { a: number; b: number };
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

function rows(pooled: Pooled[], options: CompareOptions, adjustment: Adjustment): ComparisonRow[] {
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

/** Loads both runs, pairs their samples and runs every test. */
export function compareRuns(
  locationA: string,
  locationB: string,
  options: CompareOptions = {},
): RunComparison {
  const runA = loadRun(locationA);
  const runB = loadRun(locationB);
  const selection = selectTargets(runA, runB, options);
  const adjustment = options.adjustment ?? 'holm';
  const cache = new Map<string, SampleScore[]>();
  const samples = (file: string) => {
    let lines = cache.get(file);
    if (!lines) {
      lines = readSampleScores(file);
      cache.set(file, lines);
    }
    return lines;
  };
  const paired: PairedScores[] = selection.targets.map((target) =>
    pairScores(
      samples(runA.sampleFiles.get(target.task) as string),
      samples(runB.sampleFiles.get(target.task) as string),
      target,
    ),
  );
  const taskEntries: Pooled[] = paired.map((pair) => ({
    name: pair.target.task,
    kind: 'task',
    target: pair.target,
    docIds: pair.docIds,
    a: pair.a,
    b: pair.b,
    unpaired: { a: pair.unpairedA, b: pair.unpairedB },
    unscored: { a: pair.unscoredA, b: pair.unscoredB },
  }));
  const groupEntries: Pooled[] = [];
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
      });
    }
  }
  for (const entry of [...taskEntries, ...groupEntries]) {
    if (entry.a.length < 2) {
      selection.skipped.push({ task: entry.name, reason: `only ${entry.a.length} paired samples` });
    }
  }
  const enough = (entry: Pooled) => entry.a.length >= 2;
  return {
    runA: { resultsFile: runA.resultsFile, model: runA.results.model_name ?? null },
    runB: { resultsFile: runB.resultsFile, model: runB.results.model_name ?? null },
    adjustment,
    alpha: options.alpha ?? 0.05,
    power: options.power ?? 0.8,
    tasks: rows(taskEntries.filter(enough), options, adjustment),
    groups: rows(groupEntries.filter(enough), options, adjustment),
    skipped: selection.skipped,
  };
}
