import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../test/support/cli-in-process.js';
import { findOne, readJson, readJsonl, repoRoot, tempDir } from '../../test/support/helpers.js';
import {
  copyRun,
  discordant,
  type Edit,
  exactMcNemarP,
  perfect,
  type ResultsJson,
  withoutSamples,
} from '../../test/support/viewer-runs.js';
import { evaluate } from '../index.js';
import type { TaskStar } from './api.js';
import { taskStars } from './best-runs.js';
import { discoverRuns } from './discover.js';

const fixtureTask = path.join(repoRoot, 'test/fixtures/viewer/colours.yaml');

/**
 * Real runs of the viewer's multiple-choice fixture (60 docs) by the dummy model with two seeds, and
 * copies of them edited into the cases: a model right on every doc, ties, partial runs, runs without
 * sample logs.
 */
describe('the ★ of a task column (significantly better than every other full run)', () => {
  let base: string;
  let lastRoot = '';
  const seed = (n: 1 | 2) => path.join(base, `seed${n}`, 'dummy');
  const accOf = (directory: string) =>
    readJson<ResultsJson>(findOne(directory, /^results_.*\.json$/)).results.viewer_colours as {
      'acc,none': number;
      'acc_ci,none': [number, number];
    };
  const logOf = (directory: string) =>
    readJsonl<{ doc_id: number; acc: number }>(findOne(directory, /^samples_viewer_colours_.*\.jsonl$/));

  beforeAll(async () => {
    base = tempDir('assay-stars-');
    for (const n of [1, 2]) {
      await evaluate({
        model: 'dummy',
        modelArgs: { seed: n },
        tasks: [fixtureTask],
        outputPath: path.join(base, `seed${n}`),
        logSamples: true,
      });
    }
  }, 60_000);

  /** Stars of a folder made of the named copies: the column's star, and it with folder names for ids. */
  async function starOf(copies: Record<string, { from: string; edit?: Edit }>) {
    const root = tempDir('assay-stars-case-');
    lastRoot = root;
    for (const [name, { from, edit }] of Object.entries(copies))
      copyRun(from, path.join(root, name, 'dummy'), edit);
    const { runs, problems } = await discoverRuns([root]);
    expect(problems).toEqual([]);
    const folder = new Map(runs.map((run) => [run.summary.id, run.summary.label.split('/')[0]]));
    const [star] = (await taskStars(runs)).stars.filter((entry) => entry.task === 'viewer_colours');
    const named = (entry: TaskStar) => ({
      run: entry.run && folder.get(entry.run),
      entrants: entry.entrants,
      beaten: entry.beaten.map((win) => [folder.get(win.run), win.method]),
    });
    return { star, named: named(star) };
  }

  it('gives none to runs tied at the top (with sample logs or without), as assay compare finds no difference', async () => {
    const { star, named } = await starOf({
      a: { from: seed(1), edit: perfect() },
      b: { from: seed(1), edit: perfect() },
      c: { from: seed(1), edit: perfect({ samples: false }) },
      seed1: { from: seed(1) },
    });
    expect(named).toEqual({ run: null, entrants: 4, beaten: [] });
    // assay compare through the CLI's main() in this process (test/cli-in-process.ts); its real CLI runs
    // are in test/compare.e2e.test.ts.
    const tie = await runCliInProcess([
      'compare',
      path.join(lastRoot, 'a'),
      path.join(lastRoot, 'b'),
      '--format',
      'json',
    ]);
    expect(tie.status, tie.stderr).toBe(0);
    expect(JSON.parse(tie.stdout).tasks[0].outcome).toBe('no detectable difference');
    expect(star.note).toBe('no ★: 3 full runs share the best score, 1');
  });

  it('gives none to a lead within the noise (the two dummy seeds)', async () => {
    const one = logOf(seed(1));
    const two = logOf(seed(2));
    const { aOnly, bOnly } = discordant(one, two);
    // The fixture's premise: the seeds' scores differ, but far from significantly by any McNemar test.
    expect(accOf(seed(1))['acc,none']).not.toBe(accOf(seed(2))['acc,none']);
    expect(exactMcNemarP(aOnly, bOnly)).toBeGreaterThan(0.5);
    const paired = await starOf({ seed1: { from: seed(1) }, seed2: { from: seed(2) } });
    expect(paired.named).toEqual({ run: null, entrants: 2, beaten: [] });
    expect(paired.star.note).toBe(
      'no ★: the best score is not significantly better than every other full run’s (2 full runs)',
    );
    // Without sample logs: the runs' 95% intervals overlap almost entirely, so the difference's includes 0.
    const [low, high] = accOf(seed(1))['acc_ci,none'];
    const [low2, high2] = accOf(seed(2))['acc_ci,none'];
    expect(Math.min(high, high2) - Math.max(low, low2)).toBeGreaterThan(0.15);
    const intervals = await starOf({
      seed1: { from: seed(1), edit: withoutSamples },
      seed2: { from: seed(2), edit: withoutSamples },
    });
    expect(intervals.named).toEqual({ run: null, entrants: 2, beaten: [] });
  });

  it('stars a run significantly better than each other full run; a partial run neither blocks nor gets it', async () => {
    // perfect vs each seed: every discordant doc goes perfect's way.
    for (const n of [1, 2] as const) {
      const wrong = logOf(seed(n)).filter((line) => line.acc === 0).length;
      expect(exactMcNemarP(0, wrong)).toBeLessThan(1e-6);
    }
    const { star, named } = await starOf({
      perfect: { from: seed(1), edit: perfect() },
      seed1: { from: seed(1) },
      seed2: { from: seed(2) },
      // A --limit copy of the perfect run: tied with it, but partial, so it is not in the field.
      partial: {
        from: seed(1),
        edit: perfect({
          results: (results) => {
            results.partial = true;
            results.config.limit = 10;
          },
        }),
      },
    });
    expect(named.run).toBe('perfect');
    expect(named.entrants).toBe(3);
    expect(named.beaten.sort()).toEqual([
      ['seed1', 'paired'],
      ['seed2', 'paired'],
    ]);
    expect(star.beaten.every((win) => win.pValueAdjusted !== null && win.pValueAdjusted < 0.05)).toBe(true);
    expect(star.note).toMatch(/^★: significantly better than each of the 2 other full runs/);
    // The CLI says the same of each pair (house rule 16: one computation for both views).
    for (const other of ['seed1', 'seed2']) {
      const result = await runCliInProcess([
        'compare',
        path.join(lastRoot, other),
        path.join(lastRoot, 'perfect'),
        '--format',
        'json',
      ]);
      expect(result.status, result.stderr).toBe(0);
      const [row] = JSON.parse(result.stdout).tasks;
      expect([row.name, row.outcome]).toEqual(['viewer_colours', 'B better']);
    }
  });

  it('without sample logs, compares by the 95% interval of the difference', async () => {
    // Non-overlapping 95% intervals: the MOVER interval of the difference excludes 0 (its lower end is at
    // least perfect's lower end minus the other's upper end).
    for (const n of [1, 2] as const) expect(accOf(seed(n))['acc_ci,none'][1]).toBeLessThan(0.94);
    const { named } = await starOf({
      perfect: { from: seed(1), edit: perfect({ samples: false }) },
      seed1: { from: seed(1), edit: withoutSamples },
      seed2: { from: seed(2) },
    });
    expect(named.run).toBe('perfect');
    expect(named.beaten.sort()).toEqual([
      ['seed1', 'intervals'],
      ['seed2', 'intervals'],
    ]);
  });

  it('follows the metric’s direction; a column of one full run, or of unknown direction, has none', async () => {
    const lowerIsBetter: Edit = (text, name) => {
      if (!name.startsWith('results_')) return text;
      const results = JSON.parse(text) as ResultsJson;
      results.higher_is_better.viewer_colours.acc = false;
      return JSON.stringify(results);
    };
    const flipped: Edit = (text, name) => lowerIsBetter(perfect()(text, name) as string, name);
    const lower = await starOf({
      perfect: { from: seed(1), edit: flipped },
      seed1: { from: seed(1), edit: lowerIsBetter },
    });
    expect(lower.named).toEqual({ run: 'seed1', entrants: 2, beaten: [['perfect', 'paired']] });

    const alone = await starOf({ perfect: { from: seed(1), edit: perfect() } });
    expect(alone.named).toEqual({ run: null, entrants: 1, beaten: [] });
    expect(alone.star.note).toMatch(/a ★ needs two or more full runs/);

    const unknown: Edit = (text, name) => {
      if (!name.startsWith('results_')) return text;
      const results = JSON.parse(text) as ResultsJson;
      results.higher_is_better = {};
      return JSON.stringify(results);
    };
    const noDirection = await starOf({
      perfect: { from: seed(1), edit: (text, name) => unknown(perfect()(text, name) as string, name) },
      seed1: { from: seed(1), edit: unknown },
    });
    expect(noDirection.named.run).toBeNull();
    expect(noDirection.star.note).toMatch(/direction/);
  });
});
