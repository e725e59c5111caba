/**
 * `assay compare` on two leaderboards: what moved and by how much, when the sample logs that paired
 * tests need are not there. Per task present in both: old (A), new (B), Δ = B − A, the 95% interval of Δ
 * from each run's own interval (MOVER; Newcombe's method 10 for accuracies, stats/mover-interval.ts),
 * and whether the change exceeds it (the interval excludes 0). The intervals are each run's, so this is
 * an unpaired comparison: weaker than compare's paired tests, which it leaves to runs with sample logs.
 *
 * A side is a leaderboard file, or a run (results file or folder), whose leaderboard is the one written
 * beside its results, else one derived from its results file.
 */
import path from 'node:path';
import { AssayError } from '../../errors.js';
import { moverDifferenceInterval } from '../../stats/mover-interval.js';
import { buildLeaderboard } from '../leaderboard.js';
import { readLeaderboard } from '../read-leaderboard.js';
import { type LoadedRun, loadRun } from '../read-run.js';
import { isResultsFileName } from '../run-files.js';
import type { Leaderboard, LeaderboardTask } from '../schema.js';

export interface LeaderboardSide {
  /** The leaderboard file read, or the results file one was derived from. */
  file: string;
  leaderboard: Leaderboard;
  /** The run beside the leaderboard, when its results file is there. */
  run: LoadedRun | undefined;
}

export type DiffChange =
  | 'B better'
  | 'B worse'
  | 'within the intervals'
  | 'changed'
  | 'no interval'
  | 'not compared';

export interface LeaderboardDiffRow {
  task: string;
  metric: string;
  filter: string;
  higherIsBetter: boolean | null;
  old: number | null;
  new: number | null;
  /** new − old. */
  delta: number | null;
  oldCi: [number, number] | null;
  newCi: [number, number] | null;
  /** 95% interval of Δ (MOVER); null when either run has no interval. */
  deltaCi: [number, number] | null;
  /** The interval of Δ excludes 0; null when it cannot be told. */
  exceeds: boolean | null;
  change: DiffChange;
  note?: string;
}

export interface LeaderboardDiff {
  kind: 'leaderboard-diff';
  a: { file: string; model: string };
  b: { file: string; model: string };
  tasks: LeaderboardDiffRow[];
  onlyInA: string[];
  onlyInB: string[];
  overall: { old: number | null; new: number | null; delta: number | null };
}

/** A file whose name or content says it is a leaderboard. */
function isLeaderboardFile(location: string): boolean {
  const name = path.basename(location);
  return name.endsWith('.json') && !isResultsFileName(name) && name.startsWith('leaderboard');
}

/** The run a leaderboard sits beside (its results file), when it is there. */
function runBeside(file: string, leaderboard: Leaderboard): LoadedRun | undefined {
  const stamp = /^leaderboard_(.+)\.json$/.exec(path.basename(file))?.[1];
  const candidates = [
    leaderboard.results_file && path.join(path.dirname(file), leaderboard.results_file),
    stamp && path.join(path.dirname(file), `results_${stamp}.json`),
  ].filter((candidate): candidate is string => Boolean(candidate));
  for (const candidate of candidates) {
    try {
      return loadRun(candidate, { requireSamples: false });
    } catch (error) {
      if (!(error instanceof AssayError)) throw error;
    }
  }
  return undefined;
}

export function loadLeaderboardSide(location: string): LeaderboardSide {
  if (isLeaderboardFile(location)) {
    const leaderboard = readLeaderboard(location);
    return { file: location, leaderboard, run: runBeside(location, leaderboard) };
  }
  const run = loadRun(location, { requireSamples: false });
  if (run.leaderboardFile)
    return { file: run.leaderboardFile, leaderboard: readLeaderboard(run.leaderboardFile), run };
  // An lm-eval run, or one made before leaderboards: derived from its results file, as a run writes it.
  return {
    file: run.resultsFile,
    leaderboard: buildLeaderboard({ results: run.results, resultsFile: path.basename(run.resultsFile) }),
    run,
  };
}

function changeOf(row: Omit<LeaderboardDiffRow, 'change'>): DiffChange {
  if (row.delta === null) return 'not compared';
  if (row.exceeds === null) return 'no interval';
  if (!row.exceeds) return 'within the intervals';
  if (row.higherIsBetter === null) return 'changed';
  return row.delta > 0 === row.higherIsBetter ? 'B better' : 'B worse';
}

function diffTask(task: string, a: LeaderboardTask, b: LeaderboardTask): LeaderboardDiffRow {
  const base = {
    task,
    metric: a.metric,
    filter: a.filter,
    higherIsBetter: a.higher_is_better ?? b.higher_is_better,
    old: a.value,
    new: b.value,
    oldCi: a.ci,
    newCi: b.ci,
  };
  if (a.metric !== b.metric || a.filter !== b.filter) {
    return {
      ...base,
      delta: null,
      deltaCi: null,
      exceeds: null,
      change: 'not compared',
      note: `primary metrics differ: ${a.metric},${a.filter} in A, ${b.metric},${b.filter} in B`,
    };
  }
  if (a.value === null || b.value === null) {
    const row = { ...base, delta: null, deltaCi: null, exceeds: null };
    return {
      ...row,
      change: 'not compared',
      note: `no value in ${a.value === null ? 'A' : 'B'} (nothing scored)`,
    };
  }
  const delta = b.value - a.value;
  let deltaCi: [number, number] | null = null;
  if (a.ci && b.ci) {
    const interval = moverDifferenceInterval(
      { value: a.value, low: a.ci[0], high: a.ci[1] },
      { value: b.value, low: b.ci[0], high: b.ci[1] },
    );
    deltaCi = [interval.low, interval.high];
  }
  const row = {
    ...base,
    delta,
    deltaCi,
    exceeds: deltaCi ? deltaCi[0] > 0 || deltaCi[1] < 0 : null,
    ...(deltaCi ? {} : { note: `no 95% interval in ${a.ci ? 'B' : 'A'}` }),
  };
  return { ...row, change: changeOf(row) };
}

export function diffLeaderboards(a: LeaderboardSide, b: LeaderboardSide): LeaderboardDiff {
  const inB = b.leaderboard.tasks;
  const rows: LeaderboardDiffRow[] = [];
  for (const [task, entry] of Object.entries(a.leaderboard.tasks)) {
    if (inB[task]) rows.push(diffTask(task, entry, inB[task]));
  }
  const { overall: oldOverall } = a.leaderboard;
  const { overall: newOverall } = b.leaderboard;
  return {
    kind: 'leaderboard-diff',
    a: { file: a.file, model: a.leaderboard.model },
    b: { file: b.file, model: b.leaderboard.model },
    tasks: rows,
    onlyInA: Object.keys(a.leaderboard.tasks).filter((task) => !inB[task]),
    onlyInB: Object.keys(inB).filter((task) => !a.leaderboard.tasks[task]),
    overall: {
      old: oldOverall,
      new: newOverall,
      // Only over the same tasks: a mean over other tasks moves for reasons that are not the model.
      delta:
        oldOverall !== null &&
        newOverall !== null &&
        JSON.stringify(a.leaderboard.overall_tasks) === JSON.stringify(b.leaderboard.overall_tasks)
          ? newOverall - oldOverall
          : null,
    },
  };
}

export type ResolvedComparison =
  | { mode: 'paired'; resultsA: string; resultsB: string }
  | { mode: 'leaderboards'; a: LeaderboardSide; b: LeaderboardSide };

/**
 * How `assay compare A B` compares: with paired tests on the sample logs when both runs have them
 * (whether given as runs or as the leaderboards beside them), else on the two leaderboards.
 */
export function resolveComparison(locationA: string, locationB: string): ResolvedComparison {
  const a = loadLeaderboardSide(locationA);
  const b = loadLeaderboardSide(locationB);
  if (a.run?.sampleFiles.size && b.run?.sampleFiles.size)
    return { mode: 'paired', resultsA: a.run.resultsFile, resultsB: b.run.resultsFile };
  return { mode: 'leaderboards', a, b };
}
