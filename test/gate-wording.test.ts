/**
 * Issue 32 item 4: `assay gate` prints each bound as "lower bound L (one-sided 95%)", not as an
 * interval; an undecided task whose items needed exceed the task says so and names what would decide it;
 * `--help` says how a CI job treats exit 3. The bounds and p-values are SciPy's (Tango's score test with
 * continuity 1, test/fixtures/stats/edge_vectors.json); the items needed are docs/statistics.md's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './support/cli-in-process.js';
import { tempDir } from './support/helpers.js';
import { writeScoredRun } from './support/synthetic-run.js';

interface TangoCase {
  name: string;
  expected: { greater: { pvalue: number }; less: { pvalue: number }; bounds_90: [number, number] };
}
const cases = (
  JSON.parse(readFileSync('test/fixtures/stats/edge_vectors.json', 'utf8')) as { cases: TangoCase[] }
).cases;
const tango = (name: string) => cases.find((entry) => entry.name === name)?.expected as TangoCase['expected'];
const f4 = (value: number) => (value > 0 ? `+${value.toFixed(4)}` : value.toFixed(4));
const repeat = (value: number, times: number) => new Array<number>(times).fill(value);

/** `assay gate` on a pair of runs, in process. */
const gate = (runs: { a: string; b: string }, ...args: string[]) =>
  runCliInProcess(['gate', '--baseline', runs.a, '--current', runs.b, ...args]);

let root = '';
let same = { a: '', b: '' };
let worse = { a: '', b: '' };
let limited = { a: '', b: '' };
beforeAll(() => {
  root = tempDir('assay-gate-wording-');
  const pair = (name: string, a: number[], b: number[], taskSizes?: Record<string, number>) => {
    const dirs = { a: path.join(root, name, 'a'), b: path.join(root, name, 'b') };
    writeScoredRun(dirs.a, '2026-01-01T00-00-00.000000', { quiz: a }, { taskSizes });
    writeScoredRun(dirs.b, '2026-01-02T00-00-00.000000', { quiz: b }, { taskSizes });
    return dirs;
  };
  // 240 items, nothing flips (n01 = n10 = 0).
  const scores = [...repeat(1, 180), ...repeat(0, 60)];
  same = pair('same', scores, scores);
  // 40 items, 12 right → wrong and 4 wrong → right.
  worse = pair(
    'worse',
    [...repeat(1, 12), ...repeat(0, 4), ...repeat(1, 10), ...repeat(0, 14)],
    [...repeat(0, 12), ...repeat(1, 4), ...repeat(1, 10), ...repeat(0, 14)],
  );
  // The same 240 unflipped items, from a task of 1,000 docs run with a limit.
  limited = pair('limited', scores, scores, { quiz: 1000 });
});

describe('assay gate wording', () => {
  it('pass and fail print the bound that decided, as "lower/upper bound L (one-sided 95%)"', async () => {
    const pass = tango('tango non-inferiority n01=0 n10=0 n=240 margin=0.02');
    const run = await gate(same, '--max-drop', '0.02');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      `PASS      quiz (acc, none), n = 240: B − A = 0.0000; lower bound ${f4(pass.bounds_90[0])} (one-sided 95%) > −0.02: non-inferior (p = ${pass.greater.pvalue.toFixed(3)}); test: Tango score test`,
    );
    const fail = tango('tango non-inferiority n01=12 n10=4 n=40 margin=0.005');
    const failed = await gate(worse, '--max-drop', '0.005');
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain(
      `FAIL      quiz (acc, none), n = 40: B − A = -0.2000; upper bound ${f4(fail.bounds_90[1])} (one-sided 95%) < −0.005: significantly worse than the margin (p_adj = ${fail.less.pvalue.toFixed(3)}, Holm)`,
    );
    expect(run.stdout + failed.stdout).not.toMatch(/bounds \[/);
  });

  it('undecided: items needed beyond the task, and what would decide it instead, each of which does', async () => {
    const bounds = tango('tango non-inferiority n01=0 n10=0 n=240 margin=0.005').bounds_90;
    const run = await gate(same, '--max-drop', '0.005');
    expect(run.status).toBe(3);
    // The smallest 4-decimal margin above −L = 0.018458: 0.0185.
    const wider = Math.ceil(-bounds[0] * 1e4) / 1e4;
    expect(wider).toBe(0.0185);
    expect(run.stdout).toContain(
      `UNDECIDED quiz (acc, none), n = 240: B − A = 0.0000; lower bound ${f4(bounds[0])} (one-sided 95%) is not above −0.005 and upper bound ${f4(bounds[1])} (one-sided 95%) is not below it: cannot decide at n = 240; about 894 paired items would decide with 80% power if the true change were the observed one, more than the 240 the task has; what would decide it: a wider margin (these samples pass --max_drop ${wider} or more), or --mode threshold (no test: fail only when the observed drop exceeds the margin; here it would pass), or repeats of each item`,
    );
    expect(run.stdout).toContain('`assay gate --help` says how a CI job treats exit 3');
    // Each named alternative decides.
    const widened = await gate(same, '--max-drop', String(wider));
    expect(widened.status).toBe(0);
    const threshold = await gate(same, '--max-drop', '0.005', '--mode', 'threshold');
    expect(threshold.status).toBe(0);
  });

  it('undecided on a limited run: the task has the items, so the line says to run more of them', async () => {
    const run = await gate(limited, '--max-drop', '0.005');
    expect(run.status).toBe(3);
    expect(run.stdout).toContain(
      'about 894 paired items would decide with 80% power if the true change were the observed one; the task has 1000 docs and these runs scored 240 of them: run more of them (a larger --limit, or none)',
    );
    expect(run.stdout).not.toContain('what would decide it');
  });

  it('--help says what each exit code means to a CI job, exit 3 above all', async () => {
    const help = await runCliInProcess(['gate', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Exit codes, and what a CI job should do with each:');
    expect(help.stdout).toMatch(/3 {2}undecided: .* Do not fail the build on it/s);
    expect(help.stdout).toContain('if [ "$code" = 3 ]; then echo "undecided"; exit 0; fi; exit $code');
  });
});
