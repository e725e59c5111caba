import { describe, expect, it } from 'vitest';
import type { SummaryCell } from '../../results/suite-summary.js';
import type { CollectedCell, TaskColumn } from './collect.js';
import { groupStatistics } from './group-statistics.js';
import { taskStatistics } from './task-statistics.js';

const SETTINGS = { iterations: 500, seed: 1, confidence: 0.95 };
/** SciPy: norm.ppf(0.975), norm.ppf(0.8). */
const Z975 = 1.959963984540054;
const Z80 = 0.8416212335729143;

function cell(
  model: string,
  task: string,
  scores: number[] | null,
  extra: Partial<SummaryCell> = {},
  stderr: number | null = null,
): CollectedCell {
  const value = scores ? scores.reduce((sum, score) => sum + score, 0) / scores.length : null;
  return {
    summary: {
      model,
      task,
      task_set: task,
      status: scores ? 'ok' : 'missing',
      metric: 'acc',
      value,
      ci: null,
      n: scores?.length ?? null,
      errored_samples: 0,
      latency_p50_ms: null,
      cost_usd: null,
      results_file: null,
      reason: null,
      ...extra,
    },
    stderr,
    scores: scores ? new Map(scores.map((score, doc) => [`doc${doc}#0`, score])) : null,
    seconds: null,
  };
}

function column(task: string, cells: CollectedCell[], metric = 'acc', higherIsBetter = true): TaskColumn {
  return { task, taskSet: task, metric, filter: 'none', higherIsBetter, cells };
}

// 20 docs: on docs 6–19 the three models agree (alternating); on docs 0–5 A is wrong everywhere, B right
// everywhere, C right on 0–2 only.
const common = Array.from({ length: 14 }, (_, i) => i % 2);
const A = [0, 0, 0, 0, 0, 0, ...common];
const B = [1, 1, 1, 1, 1, 1, ...common];
const C = [1, 1, 1, 0, 0, 0, ...common];
const MODELS = ['A', 'B', 'C'];

describe("a task's statistics", () => {
  const { summary, headToHead } = taskStatistics(
    column('t', [cell('A', 't', A), cell('B', 't', B), cell('C', 't', C)]),
    MODELS,
    SETTINGS,
  );

  it('tests each pair with exact McNemar and adjusts the matrix with Holm (by hand)', () => {
    // A→B: 6 discordant pairs all one way, p = 2 · 0.5⁶ = 0.03125; A→C and B→C: 3, p = 2 · 0.5³ = 0.25.
    // Holm over three: 0.03125 · 3 = 0.09375, then max(0.25 · 2, 0.09375) = 0.5, then 0.5.
    expect(
      headToHead.pairs.map((pair) => [pair.a, pair.b, pair.n, pair.difference, pair.p_value, pair.p_holm]),
    ).toEqual([
      ['A', 'B', 20, expect.closeTo(0.3, 12), expect.closeTo(0.03125, 12), expect.closeTo(0.09375, 12)],
      ['A', 'C', 20, expect.closeTo(0.15, 12), expect.closeTo(0.25, 12), expect.closeTo(0.5, 12)],
      ['B', 'C', 20, expect.closeTo(-0.15, 12), expect.closeTo(0.25, 12), expect.closeTo(0.5, 12)],
    ]);
    expect(headToHead.pairs.every((pair) => pair.test === 'mcnemar')).toBe(true);
  });

  it("gives the minimum detectable difference of Miller's eq. 10 at the shared n (by hand)", () => {
    // Sample variances of the paired differences: 4.2/19, 2.55/19, 2.55/19; ω² their mean = 9.3/57.
    const omega2 = 9.3 / 57;
    expect(summary.shared_n).toBe(20);
    expect(summary.minimum_detectable_difference).toBeCloseTo((Z975 + Z80) * Math.sqrt(omega2 / 20), 12);
  });

  it('ranks by the shared-doc values, each rank interval holding its point rank', () => {
    expect(summary.ranks.map((entry) => [entry.model, entry.value, entry.rank.point])).toEqual([
      ['A', expect.closeTo(7 / 20, 12), 3],
      ['B', expect.closeTo(13 / 20, 12), 1],
      ['C', expect.closeTo(10 / 20, 12), 2],
    ]);
    for (const { rank } of summary.ranks)
      expect(rank.best <= rank.point && rank.point <= rank.worst).toBe(true);
  });

  it('resolves the ranks of models that differ on every doc', () => {
    const ones = Array.from({ length: 30 }, () => 1);
    const zeros = Array.from({ length: 30 }, () => 0);
    const separated = taskStatistics(
      column('s', [cell('A', 's', zeros), cell('B', 's', ones)]),
      ['A', 'B'],
      SETTINGS,
    );
    expect(separated.summary.ranks.map((entry) => entry.rank)).toEqual([
      { point: 2, best: 2, worst: 2 },
      { point: 1, best: 1, worst: 1 },
    ]);
  });

  it('leaves a model without scores out of the ranks and the matrix', () => {
    const partial = taskStatistics(
      column('t', [cell('A', 't', A), cell('B', 't', null), cell('C', 't', C)]),
      MODELS,
      SETTINGS,
    );
    expect(partial.summary.ranks.map((entry) => entry.model)).toEqual(['A', 'C']);
    expect(partial.headToHead.pairs.map((pair) => `${pair.a}-${pair.b}`)).toEqual(['A-C']);
  });
});

describe("a group's statistics", () => {
  it('macro-averages like metrics with a normal interval of √Σse²/k (by hand)', () => {
    const columns = [
      column('t1', [
        cell('A', 't1', A, {}, 0.03),
        cell('B', 't1', B, {}, 0.04),
        cell('C', 't1', C, {}, 0.05),
      ]),
      column('t2', [
        cell('A', 't2', B, {}, 0.04),
        cell('B', 't2', C, {}, 0.03),
        cell('C', 't2', A, {}, 0.05),
      ]),
    ];
    const { summary, headToHead } = groupStatistics('g', columns, MODELS, SETTINGS);
    const a = summary.models[0];
    const mean = (7 / 20 + 13 / 20) / 2;
    const half = Z975 * (Math.sqrt(0.03 ** 2 + 0.04 ** 2) / 2);
    expect(a.macro_average?.value).toBeCloseTo(mean, 12);
    expect(a.macro_average?.ci?.[0]).toBeCloseTo(mean - half, 12);
    expect(a.macro_average?.ci?.[1]).toBeCloseTo(mean + half, 12);
    // HELM: on t1 A is last (0), B first (1), C 0.5; on t2 A first, B 0.5, C last.
    expect(summary.models.map((model) => model.mean_win_rate)).toEqual([0.5, 0.75, 0.25]);
    for (const model of summary.models) {
      const [low, high] = model.win_rate_interval as [number, number];
      expect(low <= (model.mean_win_rate as number) && (model.mean_win_rate as number) <= high).toBe(true);
    }
    expect(summary.metric).toBe('acc');
    expect(summary.macro_average_reason).toBeNull();
    // Pooled over both tasks: 40 docs a pair.
    expect(headToHead.pairs.map((pair) => pair.n)).toEqual([40, 40, 40]);
  });

  it('gives no macro average, rank or pooled matrix over unlike metrics, and says why; win rates still', () => {
    const columns = [
      column('t1', [cell('A', 't1', A), cell('B', 't1', B), cell('C', 't1', C)]),
      column('t2', [cell('A', 't2', B), cell('B', 't2', C), cell('C', 't2', A)], 'exact_match'),
    ];
    const { summary, headToHead } = groupStatistics('g', columns, MODELS, SETTINGS);
    expect(summary.metric).toBeNull();
    expect(summary.macro_average_reason).toBe(
      'its tasks report different metrics (acc: t1; exact_match: t2), and a mean over unlike metrics means nothing',
    );
    expect(summary.models.map((model) => [model.macro_average, model.rank])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
    expect(summary.models.map((model) => model.mean_win_rate)).toEqual([0.5, 0.75, 0.25]);
    expect(headToHead).toMatchObject({ pairs: [], reason: summary.macro_average_reason });
  });
});
