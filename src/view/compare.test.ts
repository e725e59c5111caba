/**
 * Issue 18: one comparison engine. The viewer's compare page and `assay compare` (its library function,
 * compareRuns in results/compare/compare-runs.ts) must give the same numbers for the same two runs. Two
 * dummy "models" (two seeds) run the compare fixtures (a group of two multiple-choice tasks and a
 * generation task), in-process; the viewer reads them as `assay view` does, from the folder.
 */

import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { compareRuns as compareOnCli } from '../results/compare/compare-runs.js';
import { simpleEvaluate } from '../run/evaluate.js';
import { ViewerStore } from './store.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/compare');

let root = '';

async function run(seed: number): Promise<string> {
  const outputPath = path.join(root, `seed${seed}`);
  await simpleEvaluate({
    model: new DummyBackend({ seed }),
    modelName: 'dummy',
    tasks: ['compare_suite', 'compare_words'],
    includePath: [fixtures],
    outputPath,
    logSamples: true,
    bootstrapIters: 0,
  });
  return outputPath;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'assay-engine-parity-'));
  await run(1);
  await run(2);
});

describe('one comparison engine', () => {
  it('the compare page and assay compare give identical numbers on the same two runs', async () => {
    const cli = compareOnCli(path.join(root, 'seed1'), path.join(root, 'seed2'));
    const store = new ViewerStore([root]);
    const { runs } = await store.runs();
    const id = (folder: string) => runs.find((entry) => entry.label.startsWith(`${folder}${path.sep}`))?.id;
    const viewer = await store.compare([id('seed1') as string, id('seed2') as string]);

    const fromCli = [...cli.tasks, ...cli.groups].map((row) => ({
      kind: row.kind,
      task: row.name,
      metric: row.metric,
      filter: row.filter,
      n: row.n,
      baselineMean: row.meanA,
      candidateMean: row.meanB,
      difference: row.difference,
      standardError: row.standardError,
      ci: row.interval,
      test: row.defaultTest,
      pValue: row.pValue,
      adjustedPValue: row.pValueAdjusted,
      flips: row.flips ? [row.flips.rightToWrong.count, row.flips.wrongToRight.count] : null,
    }));
    const fromViewer = viewer.rows.map((row) => ({
      kind: row.kind,
      task: row.task,
      metric: row.metric,
      filter: row.filter,
      n: row.n,
      baselineMean: row.baselineMean,
      candidateMean: row.candidateMean,
      difference: row.difference,
      standardError: row.standardError,
      ci: row.ci,
      test: row.test,
      pValue: row.pValue,
      adjustedPValue: row.adjustedPValue,
      flips: row.flips ? [row.flips.rightToWrong, row.flips.wrongToRight] : null,
    }));
    // Exactly equal, not close: one computation.
    expect(fromViewer).toEqual(fromCli);
    // What the two used to differ on is present: a group row (corrected apart from the tasks), several
    // task rows adjusted together, and real differences between the seeds.
    expect(fromCli.map((row) => `${row.kind}:${row.task}`)).toEqual([
      'task:compare_mini',
      'task:compare_quiz',
      'task:compare_words',
      'group:compare_suite',
    ]);
    expect(fromCli.some((row) => row.adjustedPValue !== row.pValue)).toBe(true);
    expect(fromCli.every((row) => row.flips !== null && row.n > 0)).toBe(true);
    // The page still shows the discordant docs, as many as the flips.
    const quiz = viewer.rows.find((row) => row.task === 'compare_quiz');
    expect(quiz?.discordantCount).toBe((quiz?.flips?.rightToWrong ?? 0) + (quiz?.flips?.wrongToRight ?? 0));
    expect(quiz?.discordant.length).toBe(Math.min(100, quiz?.discordantCount ?? 0));
  });
});
