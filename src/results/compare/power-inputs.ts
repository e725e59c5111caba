/**
 * What `assay power` reads from runs instead of guessing: per task, the baseline's accuracy and its
 * number of items, and, given a second run, the Pearson correlation of the two runs' per-item scores
 * (paired by doc_hash, as compare pairs them). That correlation decides how much a paired comparison
 * gains over comparing two averages, and real pairs of runs are far from the 0.5 a plan would assume
 * (two models on one task had r = 0.004).
 */
import { isBinary, mean, pearsonCorrelation } from '../../stats/descriptive.js';
import { loadRun } from '../read-run.js';
import { type CompareOptions, pairRuns } from './compare-runs.js';

export interface TaskPowerInputs {
  task: string;
  metric: string;
  filter: string;
  /** Paired items (with one run: the run's scored items). */
  n: number;
  /** The baseline run's mean score on those items. */
  accuracy: number;
  /** The second run's mean on them; null with one run. */
  currentAccuracy: number | null;
  /** Pearson correlation of the per-item scores; null with one run, or when either run is constant. */
  correlation: number | null;
  /** Every score 0 or 1 (the accuracy formulas apply). */
  binary: boolean;
  /** Items left out: only in one run, or errored. */
  unpaired: { a: number; b: number };
  unscored: { a: number; b: number };
}

export interface RunPowerInputs {
  baseline: string;
  current: string | null;
  tasks: TaskPowerInputs[];
  skipped: Array<{ task: string; reason: string }>;
}

export type PowerInputOptions = Pick<CompareOptions, 'tasks' | 'metric' | 'timeoutsAs'>;

/** Reads each task's accuracy (and, with `current`, the per-item correlation) from runs' sample logs. */
export function powerInputsFromRuns(
  baseline: string,
  current?: string,
  options: PowerInputOptions = {},
): RunPowerInputs {
  const runA = loadRun(baseline);
  const runB = current === undefined ? runA : loadRun(current);
  // One run is paired with itself: the same reader, the same items, and only its own side is used.
  const paired = pairRuns(runA, runB, options);
  const single = current === undefined;
  return {
    baseline: runA.resultsFile,
    current: single ? null : runB.resultsFile,
    tasks: paired.tasks.map((entry) => {
      const correlation = single ? Number.NaN : pearsonCorrelation(entry.a, entry.b);
      return {
        task: entry.name,
        metric: entry.target.metric,
        filter: entry.target.filter,
        n: entry.a.length,
        accuracy: mean(entry.a),
        currentAccuracy: single ? null : mean(entry.b),
        correlation: Number.isFinite(correlation) ? correlation : null,
        binary: isBinary(entry.a) && (single || isBinary(entry.b)),
        unpaired: single ? { a: 0, b: 0 } : entry.unpaired,
        unscored: single ? { a: entry.unscored.a, b: 0 } : entry.unscored,
      };
    }),
    skipped: paired.skipped,
  };
}
