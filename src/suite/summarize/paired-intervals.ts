/**
 * Simultaneous 95% intervals on the pairwise differences of model scores, from the joint bootstrap over
 * docs (stats/joint-bootstrap.ts, stats/simultaneous-intervals.ts). A "score" is a function of the
 * models' task means: one task's mean, or a group's macro average over several tasks.
 */
import { jointBootstrapMeans } from '../../stats/joint-bootstrap.js';
import { allPairs } from '../../stats/rank-intervals.js';
import { simultaneousIntervalsOf } from '../../stats/simultaneous-intervals.js';
import { meanOf } from './shared-docs.js';

export interface BootstrapSettings {
  iterations: number;
  seed: number;
  confidence: number;
}

/** One family member: the score of each model as a function of per-task means (`means[task][model]`). */
export type ScoreOf = (means: ReadonlyArray<ArrayLike<number>>, model: number) => number;

export interface FamilyIntervals {
  /** Per member, per pair (pairIndex order): interval of score_j − score_i. */
  low: Float64Array[];
  high: Float64Array[];
  /** Per member, each model's score on the observed data. */
  estimates: number[][];
}

/**
 * `tasks[t][k]`: model k's scores on task t's shared docs. Each family member is a score; the intervals
 * hold for all pairs of all members at once.
 */
export function familyIntervals(
  tasks: ReadonlyArray<ReadonlyArray<Float64Array>>,
  members: readonly ScoreOf[],
  models: number,
  settings: BootstrapSettings,
): FamilyIntervals {
  const pairs = allPairs(models);
  const observed = tasks.map((scores) => scores.map(meanOf));
  const replicates = jointBootstrapMeans(tasks, { iterations: settings.iterations, seed: settings.seed });
  const estimates = members.map((score) => Array.from({ length: models }, (_, k) => score(observed, k)));
  // Each member's score of each model in each draw (draws × members × models); the pair differences are
  // taken from these as the intervals need them, never all stored.
  const scores = new Float64Array(settings.iterations * members.length * models);
  const means = tasks.map(() => new Float64Array(models));
  for (let b = 0; b < settings.iterations; b++) {
    tasks.forEach((_, t) => {
      for (let k = 0; k < models; k++) means[t][k] = replicates[t][b * models + k];
    });
    members.forEach((score, f) => {
      for (let k = 0; k < models; k++) scores[(b * members.length + f) * models + k] = score(means, k);
    });
  }
  const m = members.length * pairs.length;
  const pointDifferences = new Float64Array(m);
  const memberOf = new Uint32Array(m);
  const first = new Uint32Array(m);
  const second = new Uint32Array(m);
  members.forEach((_, f) => {
    pairs.forEach(([i, j], p) => {
      const index = f * pairs.length + p;
      pointDifferences[index] = estimates[f][j] - estimates[f][i];
      memberOf[index] = f;
      first[index] = i;
      second[index] = j;
    });
  });
  const intervals = simultaneousIntervalsOf(
    pointDifferences,
    settings.iterations,
    (b, index) => {
      const base = (b * members.length + memberOf[index]) * models;
      return scores[base + second[index]] - scores[base + first[index]];
    },
    settings.confidence,
  );
  return {
    low: members.map((_, f) => intervals.low.slice(f * pairs.length, (f + 1) * pairs.length)),
    high: members.map((_, f) => intervals.high.slice(f * pairs.length, (f + 1) * pairs.length)),
    estimates,
  };
}
