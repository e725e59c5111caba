/**
 * Issue 28 S1, C1 and C2 through the CLI, on runs written in assay's layout (bench/stats.ts's writeRun):
 * the gate on continuous scores with a sparse drop, and compare's interval against its own verdict for
 * 0/1 and for continuous scores.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeRun } from '../bench/stats.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { tempDir } from './support/helpers.js';

let root = '';
beforeAll(() => {
  root = tempDir('assay-stats-e2e-');
});

async function runs(name: string, n: number, a: (doc: number) => number, b: (doc: number) => number) {
  const dirA = path.join(root, name, 'a');
  const dirB = path.join(root, name, 'b');
  await writeRun(dirA, 1, [name], n, (_, doc) => a(doc));
  await writeRun(dirB, 2, [name], n, (_, doc) => b(doc));
  return { dirA, dirB };
}

describe('assay gate on scores that are not 0/1', () => {
  it('200 items at 0.5, one dropped to 0.2, margin 0.005: not a pass (the paired t passed it, p = 0.010)', async () => {
    const { dirA, dirB } = await runs(
      'sparse',
      200,
      () => 0.5,
      (doc) => (doc === 7 ? 0.2 : 0.5),
    );
    const run = await runCliInProcess(['gate', '--baseline', dirA, '--current', dirB, '--max-drop', '0.005']);
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(/^UNDECIDED sparse \(acc, none\), n = 200: B − A = -0\.0015; /m);
    expect(run.stdout).toContain(
      'test: betting test for the mean of scores in [0, 1] (Waudby-Smith & Ramdas 2024), valid at every n',
    );
  });
});

describe('assay compare: the interval agrees with the verdict', () => {
  it('0/1 scores, 0 right→wrong and 4 wrong→right of 200: p = 0.125 and an interval holding 0', async () => {
    const { dirA, dirB } = await runs(
      'flips',
      200,
      (doc) => (doc < 4 ? 0 : 1),
      () => 1,
    );
    const run = await runCliInProcess(['compare', dirA, dirB, '--format', 'json']);
    expect(run.status).toBe(0);
    const [row] = JSON.parse(run.stdout).tasks;
    expect(row.mcnemar).toMatchObject({ n01: 0, n10: 4, method: 'exact', pValue: 0.125 });
    expect(row.outcome).toBe('no detectable difference');
    // It was [0.0008, 0.0503].
    expect(row.interval[0]).toBeLessThan(0);
    expect(row.interval[1]).toBeGreaterThan(0.0503);
  });

  it('continuous scores, n = 6: exact permutation p = 4/64, and an interval holding 0 (the normal one did not)', async () => {
    const d = [0.3, 0.2, 0.25, 0.1, -0.05, 0.15];
    const { dirA, dirB } = await runs(
      'scores',
      6,
      () => 0.5,
      (doc) => 0.5 + d[doc],
    );
    const run = await runCliInProcess(['compare', dirA, dirB, '--format', 'json']);
    expect(run.status).toBe(0);
    const [row] = JSON.parse(run.stdout).tasks;
    // Only the identity and the pattern flipping −0.05 reach the observed sum: 2·(2/64).
    expect(row.permutation).toMatchObject({ method: 'exact', patterns: 64 });
    expect(row.pValue).toBeCloseTo(4 / 64, 12);
    expect(row.outcome).toBe('no detectable difference');
    // B − A ± 1.96·SE = 0.1583 ± 1.96·0.0490 = [0.0623, 0.2544] excluded 0.
    expect(row.intervalMethod).toBe('sign-flip-permutation');
    expect(row.interval[0]).toBeLessThanOrEqual(0);
    expect(row.interval[1]).toBeGreaterThan(0.1583);
  });
});
