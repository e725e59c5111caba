/**
 * Issue 32 item 3: `assay compare` leads with one line per task in plain words, from a known pair of runs
 * written here. Every number in the expected lines is computed in this file from the scores, with the
 * documented formulas (docs/statistics.md), or read from SciPy's references (test/fixtures/stats/
 * edge_vectors.json): never from assay's output.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './support/cli-in-process.js';
import { tempDir } from './support/helpers.js';
import { writeScoredRun } from './support/synthetic-run.js';

const repeat = (value: number, times: number) => new Array<number>(times).fill(value);
const mean = (values: number[]) => values.reduce((x, y) => x + y, 0) / values.length;
const sd = (values: number[]) => {
  const m = mean(values);
  return Math.sqrt(values.reduce((acc, value) => acc + (value - m) ** 2, 0) / (values.length - 1));
};
function choose(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}
/** McNemar's exact two-sided p: 2·P(X ≤ min(n01, n10)), X ~ Bin(n01 + n10, ½), capped at 1. */
function exactMcNemar(n01: number, n10: number): number {
  let tail = 0;
  for (let i = 0; i <= Math.min(n01, n10); i++) tail += choose(n01 + n10, i) / 2 ** (n01 + n10);
  return Math.min(1, 2 * tail);
}
// SciPy's norm.ppf(0.975) and norm.ppf(0.8) (the reference vectors of stats_vectors.json).
const Z = 1.959963984540054;
const Z_POWER = 0.8416212335729143;
const points = (value: number) => (value * 100).toFixed(1);
const signedPoints = (value: number) => `${value < 0 ? '−' : '+'}${points(Math.abs(value))}`;

const edgeVectors = JSON.parse(readFileSync('test/fixtures/stats/edge_vectors.json', 'utf8')) as {
  cases: Array<{ name: string; expected: { interval?: [number, number] } }>;
};
const tango = (name: string) =>
  edgeVectors.cases.find((entry) => entry.name === name)?.expected.interval as [number, number];

// drop: A right on all 10 items, B wrong on 9 of them (n01 = 9, n10 = 0).
const drop = { a: repeat(1, 10), b: [...repeat(0, 9), 1] };
// even: 50 items, 3 flips each way, the rest concordant.
const even = {
  a: [...repeat(1, 3), ...repeat(0, 3), ...repeat(1, 20), ...repeat(0, 24)],
  b: [...repeat(0, 3), ...repeat(1, 3), ...repeat(1, 20), ...repeat(0, 24)],
};
// scores: 4 items whose scores are not 0/1; B − A = [0.1, 0.2, −0.1, 0.2].
const scores = { a: [0.5, 0.5, 0.5, 0.5], b: [0.6, 0.7, 0.4, 0.7] };

// six: 20 items, B right on 6 that A got wrong (n01 = 0, n10 = 6).
const six = {
  a: [...repeat(0, 6), ...repeat(1, 7), ...repeat(0, 7)],
  b: [...repeat(1, 6), ...repeat(1, 7), ...repeat(0, 7)],
};

let dirA = '';
let dirB = '';
let adjustedA = '';
let adjustedB = '';
beforeAll(() => {
  const root = tempDir('assay-lead-line-');
  dirA = path.join(root, 'a');
  dirB = path.join(root, 'b');
  writeScoredRun(dirA, '2026-01-01T00-00-00.000000', { drop: drop.a, even: even.a, scores: scores.a });
  writeScoredRun(dirB, '2026-01-02T00-00-00.000000', { drop: drop.b, even: even.b, scores: scores.b });
  adjustedA = path.join(root, 'adjusted-a');
  adjustedB = path.join(root, 'adjusted-b');
  writeScoredRun(adjustedA, '2026-01-01T00-00-00.000000', { drop: drop.a, even: even.a, six: six.a });
  writeScoredRun(adjustedB, '2026-01-02T00-00-00.000000', { drop: drop.b, even: even.b, six: six.b });
});

/** The three expected lines, each number derived here. */
function expectedLines(): string[] {
  // McNemar's exact test (fewer than 25 discordant pairs).
  const pDrop = exactMcNemar(9, 0);
  expect(pDrop).toBe(2 / 512);
  const pEven = exactMcNemar(3, 3);
  expect(pEven).toBe(1);
  // The sign-flip permutation test, exact at n = 4: patterns whose |mean| reaches the observed one.
  const d = scores.b.map((value, i) => Math.round((value - scores.a[i]) * 10) / 10);
  const observed = Math.abs(d.reduce((x, y) => x + y, 0));
  let extreme = 0;
  for (let pattern = 0; pattern < 16; pattern++) {
    const sum = d.reduce((acc, value, i) => acc + ((pattern >> i) & 1 ? -value : value), 0);
    if (Math.abs(sum) >= observed - 1e-12) extreme++;
  }
  const pScores = extreme / 16;
  expect(pScores).toBe(6 / 16);
  // Holm over the 3 task rows: sort, scale by m − rank, running max, capped at 1.
  const raw = [pDrop, pEven, pScores];
  const order = [0, 1, 2].sort((x, y) => raw[x] - raw[y]);
  const holm = new Array<number>(3);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (3 - rank) * raw[index]));
    holm[index] = running;
  });
  expect(holm).toEqual([3 * (2 / 512), 1, 0.75]);

  // The interval of 0/1 scores is Tango's score interval with the continuity shift that matches McNemar
  // (docs/statistics.md, "Interval and verdict"): 0 when 0 lies in [k − 2 − z√D, k − z√D), k the
  // smallest |n10 − n01| McNemar's exact test rejects at D discordant pairs. D = 9: splits 0–9 (p = 2/512)
  // and 1–8 (p = 20/512 = 0.039) reject, 2–7 (p = 92/512) does not, so k = 7 and the range is
  // [−0.88, 1.12): no shift, and SciPy's Tango interval is the one. D = 6: 0–6 (p = 2/64) rejects,
  // 1–5 (p = 14/64) does not, k = 6, the range is [−0.80, 1.20): no shift either.
  expect(exactMcNemar(1, 8)).toBeLessThan(0.05);
  expect(exactMcNemar(2, 7)).toBeGreaterThan(0.05);
  expect([7 - 2 - Z * 3 <= 0, 0 < 7 - Z * 3]).toEqual([true, true]);
  expect([exactMcNemar(0, 6) < 0.05, exactMcNemar(1, 5) > 0.05]).toEqual([true, true]);
  expect([6 - 2 - Z * Math.sqrt(6) <= 0, 0 < 6 - Z * Math.sqrt(6)]).toEqual([true, true]);
  const dropInterval = tango('tango interval n01=9 n10=0 n=10');
  const evenInterval = tango('tango interval n01=3 n10=3 n=50');
  // Scores not 0/1 at n ≤ 5: no exact two-sided 5% sign-flip test rejects anything (the smallest p is
  // 2/16), so the interval is every difference scores in [0, 1] allow, [−1, 1] (docs/statistics.md).
  const scoresInterval = [-1, 1];

  // MDE = (z_{α/2} + z_β)·sd(d)/√n (Miller eq. 10 with the observed differences).
  const evenDifferences = even.b.map((value, i) => value - even.a[i]);
  const mdeEven = ((Z + Z_POWER) * sd(evenDifferences)) / Math.sqrt(50);
  const mdeScores = ((Z + Z_POWER) * sd(d)) / Math.sqrt(4);
  const dropDifference = mean(drop.b) - mean(drop.a);
  const scoresDifference = mean(scores.b) - mean(scores.a);
  return [
    `drop (acc, 10 paired items): B is ${points(-dropDifference)} points below A (95% CI ${signedPoints(dropInterval[0])} to ${signedPoints(dropInterval[1])}): B is worse (McNemar's exact test, Holm-adjusted p = ${holm[0].toFixed(3)})`,
    `even (acc, 50 paired items): B scores the same as A (95% CI ${signedPoints(evenInterval[0])} to ${signedPoints(evenInterval[1])}): no detectable difference (McNemar's exact test, Holm-adjusted p = ${holm[1].toFixed(3)}); at n = 50 only changes ≥ ${points(mdeEven)} points would be seen 80% of the time`,
    `scores (acc, 4 paired items): B is ${points(scoresDifference)} points above A (95% CI ${signedPoints(scoresInterval[0])} to ${signedPoints(scoresInterval[1])}): no detectable difference (sign-flip permutation test, Holm-adjusted p = ${holm[2].toFixed(3)}); at n = 4 only changes ≥ ${points(mdeScores)} points would be seen 80% of the time`,
  ];
}

describe('assay compare leads with one line per task', () => {
  it('in plain words, the interval and verdict of one named test, the MDE when nothing is detected', async () => {
    const lines = expectedLines();
    expect(lines[0]).toBe(
      "drop (acc, 10 paired items): B is 90.0 points below A (95% CI −98.2 to −37.3): B is worse (McNemar's exact test, Holm-adjusted p = 0.012)",
    );
    const run = await runCliInProcess(['compare', dirA, dirB]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = run.stdout.split('\n');
    // The lead lines come right after the two runs, before anything else.
    expect(out.slice(2, 6)).toEqual(['', ...lines]);
    // The terms, spelled out once.
    expect(run.stdout).toContain('(a paired comparison, more sensitive than comparing the two averages)');
    expect(run.stdout).toContain('the MDE (minimum detectable effect)');
    expect(run.stdout).toContain("adjusted for testing the 3 task rows at once (Holm's method)");
    // No table, no other test by default.
    expect(run.stdout).not.toMatch(/^Task\s+Metric\s+n\s+A\s+B/m);
    expect(run.stdout).not.toContain('Wilcoxon signed-rank:');
    expect(run.stdout).toContain('--verbose');
  });

  it('--verbose adds the full battery after the same lines; --format json keeps every field and adds the line', async () => {
    const lines = expectedLines();
    const verbose = await runCliInProcess(['compare', dirA, dirB, '--verbose']);
    expect(verbose.status).toBe(0);
    expect(verbose.stdout.split('\n').slice(3, 6)).toEqual(lines);
    expect(verbose.stdout).toMatch(
      /^Task\s+Metric\s+n\s+A\s+B\s+B − A\s+95% CI\s+r\s+Test\s+p\s+p_adj\s+Verdict/m,
    );
    expect(verbose.stdout).toContain('Wilcoxon signed-rank:');
    expect(verbose.stdout).toContain('flips A right→B wrong (9): 0, 1, 2, 3, 4, 5, 6, 7, 8');
    expect(verbose.stdout).toContain("r is the Pearson correlation of the two runs' per-item scores");

    const json = await runCliInProcess(['compare', dirA, dirB, '--format', 'json']);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.tasks.map((row: { summary: string }) => row.summary)).toEqual(lines);
    // The fields of the full battery are all still there.
    for (const row of report.tasks)
      for (const field of [
        'n',
        'meanA',
        'meanB',
        'difference',
        'interval',
        'intervalMethod',
        'correlation',
        'tTest',
        'wilcoxon',
        'permutation',
        'defaultTest',
        'pValue',
        'pValueAdjusted',
        'minimumDetectableEffect',
        'outcome',
        'verdict',
        'unpaired',
        'unscored',
        'timedOut',
      ])
        expect(row).toHaveProperty(field);
    expect(report.tasks[0].flips.rightToWrong.count).toBe(9);
  });

  it('says so when the CI excludes 0 but the adjusted p does not clear alpha', async () => {
    // six: McNemar's exact p = 2/64 = 0.031 < 0.05, so its CI (which inverts the same test) excludes 0;
    // Holm over drop (2/512), six and even (1): 2·0.031 = 0.0625 ≥ 0.05, no claim.
    const p = exactMcNemar(0, 6);
    expect(p).toBe(2 / 64);
    const run = await runCliInProcess(['compare', adjustedA, adjustedB]);
    expect(run.status).toBe(0);
    const line = run.stdout.split('\n').find((text) => text.startsWith('six '));
    expect(line).toMatch(
      /^six \(acc, 20 paired items\): B is 30\.0 points above A \(95% CI \+\d+\.\d to \+\d+\.\d\): no detectable difference \(McNemar's exact test, Holm-adjusted p = 0\.063\)/,
    );
    expect(line).toContain(
      `; the CI excludes 0, but p = ${p.toFixed(3)} does not survive Holm's adjustment for 3 tasks`,
    );
  });
});
