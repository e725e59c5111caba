/**
 * Statistics figures for `npm run bench` (issue 4), each against a baseline measured in the same run:
 * - bootstrap stderr, 100,000 iterations over 14,042 0/1 items (target < 2 s), against the naive
 *   bootstrap (materializing every resample) at 1,000 iterations, scaled ×100;
 * - `assay compare` on two synthetic runs of 100,000 paired samples with every test (target < 3 s),
 *   against reading + JSON-parsing the two sample logs alone;
 * - the gate on scores in [0, 1] that are not 0/1 (issue 28 S1): its false-pass rate when the true drop
 *   equals the margin and its pass rate with no change, 4,000 seeded replications per cell over the
 *   designs of test/fixtures/stats/gate-designs.ts, n = 200, 1,000, 5,000 and margins 0.005, 0.02, against
 *   the one-sided paired t it replaced (with the same constant-difference rule);
 * - compare's interval for scores that are not 0/1 (issue 28 C2): coverage with normal differences of the
 *   inverted permutation test against B − A ± 1.96·SE, 2,000 seeded replications (500 at n = 20).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareRuns } from '../src/results/compare/compare-runs.js';
import { nonInferiority } from '../src/results/compare/non-inferiority.js';
import { bootstrapStderr, meanFromCounts } from '../src/stats/bootstrap-stderr.js';
import { studentTSf } from '../src/stats/distributions.js';
import { FastRandom } from '../src/stats/fast-random.js';
import { pairedPermutationTest } from '../src/stats/permutation-test.js';
import { DesignSampler, GATE_DESIGNS } from '../test/fixtures/stats/gate-designs.js';
import { writeScoredRun } from '../test/support/synthetic-run.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'assay.js');

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function bootstrapFigure(report: (line: string) => void): void {
  const random = new FastRandom(7);
  const items = Array.from({ length: 14042 }, () => (random.nextDouble() < 0.72 ? 1 : 0));
  const start = performance.now();
  const stderr = bootstrapStderr(mean, items, 100_000, { fromCounts: meanFromCounts });
  const fast = performance.now() - start;
  const naiveStart = performance.now();
  bootstrapStderr(mean, items, 1000);
  const naive = (performance.now() - naiveStart) * 100;
  report(
    `bootstrap stderr, 100,000 iterations over 14,042 0/1 items: ${fast.toFixed(0)} ms (target < 2000 ms; stderr ${stderr.toFixed(5)}); naive resampling extrapolated from 1,000 iterations ${naive.toFixed(0)} ms; ratio ${(fast / naive).toFixed(4)}×`,
  );
}

function timestamp(i: number): string {
  return `2026-01-0${i}T00-00-00.000000`;
}

/** Writes one synthetic run: a results file and one sample log per task, in assay's layout. */
export async function writeRun(
  directory: string,
  stampIndex: number,
  tasks: string[],
  perTask: number,
  accuracy: (task: number, doc: number) => number,
): Promise<string[]> {
  const scores = Object.fromEntries(
    tasks.map((task, t) => [task, Array.from({ length: perTask }, (_, doc) => accuracy(t, doc))]),
  );
  return writeScoredRun(directory, timestamp(stampIndex), scores, { modelName: `synthetic-${stampIndex}` });
}

async function compareFigure(report: (line: string) => void): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-stats-'));
  try {
    // 100,000 paired samples over 10 tasks; B flips ~10% of A's answers, so every test has work to do.
    const tasks = Array.from({ length: 10 }, (_, i) => `synthetic_${i}`);
    const random = new FastRandom(11);
    const a = tasks.map(() => Array.from({ length: 10_000 }, () => (random.nextDouble() < 0.7 ? 1 : 0)));
    const b = a.map((scores) => scores.map((score) => (random.nextDouble() < 0.1 ? 1 - score : score)));
    const filesA = await writeRun(path.join(work, 'a'), 1, tasks, 10_000, (t, doc) => a[t][doc]);
    const filesB = await writeRun(path.join(work, 'b'), 2, tasks, 10_000, (t, doc) => b[t][doc]);
    const readStart = performance.now();
    for (const file of [...filesA, ...filesB])
      for (const line of (await readFile(file, 'utf8')).split('\n')) if (line) JSON.parse(line);
    const readParse = performance.now() - readStart;
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const result = spawnSync(
        process.execPath,
        [bin, 'compare', path.join(work, 'a'), path.join(work, 'b'), '--format', 'json'],
        { encoding: 'utf8', maxBuffer: 1 << 28 },
      );
      times.push(performance.now() - start);
      if (result.status !== 0) throw new Error(`assay compare failed: ${result.stderr}`);
    }
    times.sort((x, y) => x - y);
    const median = times[1];
    // In-process too: on a loaded machine the CLI's wall time mostly measures the scheduler.
    const inProcessStart = performance.now();
    JSON.stringify(compareRuns(path.join(work, 'a'), path.join(work, 'b')));
    const inProcess = performance.now() - inProcessStart;
    report(
      `assay compare, two runs of 100,000 paired samples (10 tasks; McNemar, t, Wilcoxon ×3, permutation 10,000, bootstrap 10,000, Holm): CLI median ${median.toFixed(0)} ms (target < 3000 ms), in-process ${inProcess.toFixed(0)} ms; reading + JSON-parsing both sample logs alone ${readParse.toFixed(0)} ms; ratio CLI ${(median / readParse).toFixed(1)}×, in-process ${(inProcess / readParse).toFixed(1)}×`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The gate's test before issue 28: the one-sided paired t (the constant-difference rule unchanged). */
function pairedTPass(a: Float64Array, b: Float64Array, margin: number): number {
  const n = a.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += b[i] - a[i];
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (b[i] - a[i] - mean) ** 2;
  const sd = Math.sqrt(squares / (n - 1));
  if (sd <= 256 * Number.EPSILON) {
    return nonInferiority(a, b, { margin, alpha: 0.05, power: 0.8, higherIsBetter: true }).pNonInferiority;
  }
  return studentTSf((mean + margin) / (sd / Math.sqrt(n)), n - 1);
}

export function gateCalibrationFigure(report: (line: string) => void, replications = 4000): void {
  const limit = 0.05 + 3 * Math.sqrt((0.05 * 0.95) / replications);
  let worst = 0;
  let seed = 1;
  for (const design of GATE_DESIGNS)
    for (const n of [200, 1000, 5000])
      for (const margin of [0.005, 0.02]) {
        const rates: Record<string, number> = {};
        for (const [label, drop] of [
          ['at margin', margin],
          ['no change', 0],
        ] as const) {
          const sampler = new DesignSampler(seed++);
          let betting = 0;
          let t = 0;
          for (let r = 0; r < replications; r++) {
            const { a, b } = sampler.draw(design, n, drop);
            const options = { margin, alpha: 0.05, power: 0.8, higherIsBetter: true, pValuesOnly: true };
            if (nonInferiority(a, b, options).pNonInferiority < 0.05) betting++;
            if (pairedTPass(a, b, margin) < 0.05) t++;
          }
          rates[`${label} betting`] = betting / replications;
          rates[`${label} t`] = t / replications;
        }
        worst = Math.max(worst, rates['at margin betting']);
        const f = (value: number) => value.toFixed(4);
        report(
          `gate, scores in [0, 1], ${design}, n = ${n}, margin ${margin}: false pass at a drop = margin ${f(rates['at margin betting'])} (paired t ${f(rates['at margin t'])}); pass rate with no change ${f(rates['no change betting'])} (paired t ${f(rates['no change t'])})`,
        );
      }
  report(
    `gate, scores in [0, 1]: largest false-pass rate ${worst.toFixed(4)} over ${GATE_DESIGNS.length * 6} cells (limit α + 3 MC SE = ${limit.toFixed(4)}, ${replications} replications each)`,
  );
}

export function compareIntervalFigure(report: (line: string) => void): void {
  const random = new FastRandom(41);
  const normal = () =>
    Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
  for (const n of [10, 15, 20, 30, 50]) {
    const replications = n === 20 ? 500 : 2000;
    let permutation = 0;
    let normalInterval = 0;
    for (let r = 0; r < replications; r++) {
      const d = Float64Array.from({ length: n }, () => 0.02 + 0.1 * normal());
      const { interval } = pairedPermutationTest(d, { seed: r, confidence: 0.95 });
      if (interval && interval.low <= 0.02 && 0.02 <= interval.high) permutation++;
      const mean = d.reduce((x, y) => x + y, 0) / n;
      const se = Math.sqrt(d.reduce((x, y) => x + (y - mean) ** 2, 0) / (n - 1) / n);
      if (Math.abs(mean - 0.02) <= 1.959963984540054 * se) normalInterval++;
    }
    report(
      `compare interval, normal differences, n = ${n}: coverage ${(permutation / replications).toFixed(3)} (inverted permutation test), ${(normalInterval / replications).toFixed(3)} (B − A ± 1.96·SE); ${replications} replications`,
    );
  }
}

export async function runStatsBench(report: (line: string) => void): Promise<void> {
  bootstrapFigure(report);
  await compareFigure(report);
  gateCalibrationFigure(report);
  compareIntervalFigure(report);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = (line: string) => process.stdout.write(`${line}\n`);
  // `node --import tsx bench/stats.ts gate` (or `interval`) runs that figure alone.
  if (process.argv[2] === 'gate') gateCalibrationFigure(report);
  else if (process.argv[2] === 'interval') compareIntervalFigure(report);
  else await runStatsBench(report);
}
