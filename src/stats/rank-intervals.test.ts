import { describe, expect, it } from 'vitest';
import { FastRandom } from './fast-random.js';
import { jointBootstrapMeans } from './joint-bootstrap.js';
import { allPairs, pairIndex, pairOutcomes, rankIntervals, winRateBounds } from './rank-intervals.js';
import { simultaneousIntervals } from './simultaneous-intervals.js';
import { columnWinRates } from './win-rate.js';

describe('rank intervals from pairwise intervals', () => {
  it('numbers pairs in order', () => {
    expect(allPairs(4).map(([i, j]) => pairIndex(i, j, 4))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(allPairs(3)).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
  });

  it('resolves exactly the pairs whose interval excludes 0 (by hand)', () => {
    // θ1 − θ0 ∈ [0.1, 0.3] (1 above 0), θ2 − θ0 ∈ [−0.1, 0.2] (unresolved), θ2 − θ1 ∈ [−0.4, −0.05] (2 below 1).
    const outcome = pairOutcomes(3, [0.1, -0.1, -0.4], [0.3, 0.2, -0.05], true);
    expect(rankIntervals(3, outcome)).toEqual([
      { best: 2, worst: 3 },
      { best: 1, worst: 1 },
      { best: 2, worst: 3 },
    ]);
    expect(winRateBounds(3, outcome)).toEqual([
      { low: 0, high: 0.5 },
      { low: 1, high: 1 },
      { low: 0, high: 0.5 },
    ]);
    // Lower is better: the same intervals, the order reversed.
    expect(rankIntervals(3, pairOutcomes(3, [0.1, -0.1, -0.4], [0.3, 0.2, -0.05], false))).toEqual([
      { best: 1, worst: 2 },
      { best: 3, worst: 3 },
      { best: 1, worst: 2 },
    ]);
  });
});

/**
 * A synthetic task: n docs, one 0/1 score per model, model k right with probability p[k]; the models'
 * answers are correlated through a shared doc difficulty on half of the docs (as real models are).
 */
function simulateTask(random: FastRandom, p: readonly number[], n: number): Float64Array[] {
  const scores = p.map(() => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    const shared = random.nextDouble() < 0.5;
    const difficulty = random.nextDouble();
    p.forEach((pk, k) => {
      scores[k][i] = (shared ? difficulty : random.nextDouble()) < pk ? 1 : 0;
    });
  }
  return scores;
}

function meansOf(scores: Float64Array[]): number[] {
  return scores.map((values) => values.reduce((sum, value) => sum + value, 0) / values.length);
}

/** Simultaneous intervals on the pairwise differences of the task means of several tasks at once. */
function pairIntervals(tasks: Float64Array[][], iterations: number, seed: number) {
  const models = tasks[0].length;
  const pairs = allPairs(models);
  const replicates = jointBootstrapMeans(tasks, { iterations, seed });
  const estimates: number[] = [];
  const differences = new Float64Array(iterations * pairs.length * tasks.length);
  tasks.forEach((scores) => {
    const means = meansOf(scores);
    for (const [i, j] of pairs) estimates.push(means[j] - means[i]);
  });
  const m = pairs.length * tasks.length;
  for (let b = 0; b < iterations; b++)
    tasks.forEach((_, t) => {
      pairs.forEach(([i, j], p) => {
        differences[b * m + t * pairs.length + p] =
          replicates[t][b * models + j] - replicates[t][b * models + i];
      });
    });
  const intervals = simultaneousIntervals(estimates, differences);
  return tasks.map((_, t) => ({
    low: intervals.low.subarray(t * pairs.length, (t + 1) * pairs.length),
    high: intervals.high.subarray(t * pairs.length, (t + 1) * pairs.length),
  }));
}

function trueRanks(p: readonly number[]): number[] {
  return p.map((value) => 1 + p.filter((other) => other > value).length);
}

describe('coverage by simulation (nominal 0.95)', () => {
  it('rank intervals hold every true rank of a task together in at least 93% of synthetic suites', () => {
    const truth = [0.45, 0.55, 0.63, 0.72];
    const random = new FastRandom(2026);
    const simulations = 200;
    let covered = 0;
    let resolved = 0;
    for (let s = 0; s < simulations; s++) {
      const task = simulateTask(random, truth, 300);
      const [{ low, high }] = pairIntervals([task], 400, s);
      const ranks = rankIntervals(truth.length, pairOutcomes(truth.length, low, high, true));
      const ok = trueRanks(truth).every((rank, k) => ranks[k].best <= rank && rank <= ranks[k].worst);
      if (ok) covered++;
      resolved += ranks.filter((rank) => rank.best === rank.worst).length;
    }
    expect(covered / simulations).toBeGreaterThanOrEqual(0.93);
    // Not vacuous: at this n most ranks are resolved (gaps of 8–10 points, n = 300).
    expect(resolved / (simulations * truth.length)).toBeGreaterThan(0.4);
  });

  it("win-rate intervals hold every model's true mean win rate over a group in at least 93% of suites", () => {
    // Three tasks; on the second two models are truly tied (a tie counts half in the true win rate).
    const truths = [
      [0.4, 0.5, 0.6, 0.7],
      [0.6, 0.6, 0.45, 0.75],
      [0.7, 0.55, 0.5, 0.52],
    ];
    const trueWinRates = truths.map((p) => columnWinRates(p, true) as number[]);
    const random = new FastRandom(7);
    const simulations = 150;
    let covered = 0;
    let informative = 0;
    for (let s = 0; s < simulations; s++) {
      const tasks = truths.map((p) => simulateTask(random, p, 250));
      const intervals = pairIntervals(tasks, 400, 1000 + s);
      const bounds = intervals.map(({ low, high }) => winRateBounds(4, pairOutcomes(4, low, high, true)));
      const ok = [0, 1, 2, 3].every((k) => {
        const lowMean = bounds.reduce((sum, task) => sum + task[k].low, 0) / bounds.length;
        const highMean = bounds.reduce((sum, task) => sum + task[k].high, 0) / bounds.length;
        const trueMean = trueWinRates.reduce((sum, task) => sum + task[k], 0) / truths.length;
        if (highMean - lowMean < 0.5) informative++;
        return lowMean <= trueMean + 1e-12 && trueMean <= highMean + 1e-12;
      });
      if (ok) covered++;
    }
    expect(covered / simulations).toBeGreaterThanOrEqual(0.93);
    expect(informative / (simulations * 4)).toBeGreaterThan(0.5);
  });
});
