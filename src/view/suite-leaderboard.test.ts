import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/helpers.js';
import { DEMO_MODELS, runDemoSuite } from '../../test/support/suite-fixtures.js';
import { type SuiteSummary, suiteSummarySchema } from '../results/suite-summary.js';
import { facingPairs, rankText, sortedModels, suiteIndex, suiteTasks } from './suite-leaderboard.js';

let summary: SuiteSummary;
let suite: string;

beforeAll(async () => {
  suite = await runDemoSuite(tempDir('assay-suite-leaderboard-'), 'demo');
  summary = suiteSummarySchema.parse(JSON.parse(readFileSync(path.join(suite, 'summary.json'), 'utf8')));
}, 120_000);

describe('the Suite page’s leaderboard data', () => {
  it('finds every cell, task rank and group row of the summary by name', () => {
    const index = suiteIndex(summary);
    expect(suiteTasks(summary)).toEqual(['first', 'second']);
    for (const cell of summary.cells) expect(index.cell(cell.model, cell.task)).toBe(cell);
    for (const task of summary.tasks) {
      expect(index.task(task.task)).toBe(task);
      expect(index.taskSetOf(task.task)).toBe(task.task_set);
      for (const entry of task.ranks) expect(index.taskRank(task.task, entry.model)).toBe(entry);
    }
    for (const group of summary.groups)
      for (const row of group.models) expect(index.groupRow(group.group, row.model)).toBe(row);
    expect(index.cell('dummy-1', 'no-such-task')).toBeUndefined();
  });

  it('turns a pair to face either model: B − A as written for B, negated with its interval swapped for A', () => {
    const index = suiteIndex(summary);
    for (const matrix of summary.head_to_head) {
      for (const pair of matrix.pairs) {
        const fromB = facingPairs(matrix, pair.b, summary.confidence).find((entry) => entry.other === pair.a);
        const fromA = facingPairs(matrix, pair.a, summary.confidence).find((entry) => entry.other === pair.b);
        expect(fromB).toMatchObject({
          difference: pair.difference,
          ci: pair.ci,
          pHolm: pair.p_holm,
          n: pair.n,
        });
        expect(fromA).toMatchObject({
          difference: -pair.difference,
          ci: [-pair.ci[1], -pair.ci[0]],
          pHolm: pair.p_holm,
        });
        expect(fromA?.significant).toBe(pair.p_holm < 0.05);
        if (fromA?.significant) expect(fromA.better).toBe(!fromB?.better);
        else expect([fromA?.better, fromB?.better]).toEqual([null, null]);
      }
      // Each model faces every other model once.
      for (const model of DEMO_MODELS)
        expect(
          facingPairs(matrix, model, summary.confidence)
            .map((entry) => entry.other)
            .sort(),
        ).toEqual(DEMO_MODELS.filter((other) => other !== model));
    }
    // Where both models scored every doc of the task, the paired difference is the difference of their values.
    const first = summary.head_to_head.find((matrix) => matrix.scope === 'task' && matrix.name === 'first');
    if (!first) throw new Error('no matrix for first');
    for (const entry of facingPairs(first, 'dummy-2', summary.confidence)) {
      const mine = index.cell('dummy-2', 'first')?.value as number;
      const theirs = index.cell(entry.other, 'first')?.value as number;
      expect(entry.n).toBe(40);
      expect(entry.difference).toBeCloseTo(mine - theirs, 12);
    }
  });

  it('orders models as the suite lists them, or by a group’s mean win rate with the unranked last', () => {
    const index = suiteIndex(summary);
    expect(sortedModels(summary, index, null)).toEqual(DEMO_MODELS);
    const rates = summary.groups[0].models.map((row) => [row.model, row.mean_win_rate as number] as const);
    const byRate = [...rates].sort((a, b) => b[1] - a[1]).map(([model]) => model);
    expect(sortedModels(summary, index, { group: 'letters' })).toEqual(byRate);
    // A model with no win rate (its cells failed) goes last; ties keep the suite's order.
    const edited: SuiteSummary = {
      ...summary,
      groups: [
        {
          ...summary.groups[0],
          models: summary.groups[0].models.map((row) =>
            row.model === byRate[0] ? { ...row, mean_win_rate: null } : { ...row, mean_win_rate: 0.5 },
          ),
        },
      ],
    };
    expect(sortedModels(edited, suiteIndex(edited), { group: 'letters' })).toEqual([
      ...DEMO_MODELS.filter((model) => model !== byRate[0]),
      byRate[0],
    ]);
  });

  it('writes a rank as summary.md does: point (best–worst), one place when resolved', () => {
    expect(rankText({ point: 2, best: 1, worst: 3 })).toBe('2 (1–3)');
    expect(rankText({ point: 1, best: 1, worst: 1 })).toBe('1 (1)');
    expect(rankText(null)).toBe('—');
    // The ranks of summary.md's group table, written by summarize, read the same.
    const markdown = readFileSync(path.join(suite, 'summary.md'), 'utf8');
    for (const row of summary.groups[0].models) expect(markdown).toContain(`| ${rankText(row.rank)} |`);
  });
});
