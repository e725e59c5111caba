/**
 * Issue 32 item 5: `assay power --baseline RUN` reads each task's accuracy and items from the run's
 * samples, and with `--current RUN` the per-item correlation between the two runs; the help marks the
 * required flags; the assumed correlation 0.5 is explained where it is used. The accuracies and the
 * correlation are computed here from the sample logs (read and paired by doc_hash in this file); the
 * plans are checked against Miller (2024) eq. 9–10 written out here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './support/cli-in-process.js';
import { tempDir } from './support/helpers.js';
import { writeScoredRun } from './support/synthetic-run.js';

const repeat = (value: number, times: number) => new Array<number>(times).fill(value);
// SciPy's norm.ppf(0.975) + norm.ppf(0.8).
const Z = 1.959963984540054 + 0.8416212335729143;

let dirA = '';
let dirB = '';
let dirSame = '';
beforeAll(() => {
  const root = tempDir('assay-power-runs-');
  dirA = path.join(root, 'a');
  dirB = path.join(root, 'b');
  dirSame = path.join(root, 'same');
  // 200 items: A right on 150. B keeps A's answer on 170 items, loses 20 of A's right ones, gains 10.
  const a = [...repeat(1, 150), ...repeat(0, 50)];
  const b = [...repeat(0, 20), ...repeat(1, 130), ...repeat(1, 10), ...repeat(0, 40)];
  writeScoredRun(dirA, '2026-01-01T00-00-00.000000', { quiz: a });
  writeScoredRun(dirB, '2026-01-02T00-00-00.000000', { quiz: b });
  writeScoredRun(dirSame, '2026-01-03T00-00-00.000000', { quiz: a });
});

/** A run's sample log of `task`, as doc_hash → acc. */
function scores(dir: string, task: string): Map<string, number> {
  const file = readdirSync(dir).find((name) => name.startsWith(`samples_${task}_`)) as string;
  const lines = readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean);
  return new Map(
    lines.map((line) => {
      const sample = JSON.parse(line) as { doc_hash: string; acc: number };
      return [sample.doc_hash, sample.acc];
    }),
  );
}

function pearson(x: number[], y: number[]): number {
  const mx = x.reduce((s, v) => s + v, 0) / x.length;
  const my = y.reduce((s, v) => s + v, 0) / y.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Paired scores of the two runs, by doc_hash. */
function paired(): { a: number[]; b: number[] } {
  const left = scores(dirA, 'quiz');
  const right = scores(dirB, 'quiz');
  const hashes = [...left.keys()].filter((hash) => right.has(hash));
  return {
    a: hashes.map((hash) => left.get(hash) as number),
    b: hashes.map((hash) => right.get(hash) as number),
  };
}

/** Eq. 10's right-hand side: z·√(ω²(δ)/n), ω² the Bernoulli variance of the paired difference at ρ. */
const eq10 = (p: number, delta: number, rho: number, n: number) => {
  const va = p * (1 - p);
  const vb = (p + delta) * (1 - p - delta);
  return Z * Math.sqrt((va + vb - 2 * rho * Math.sqrt(va * vb)) / n);
};

describe('assay power from runs', () => {
  it('two runs: the accuracy, the items and the per-item correlation come from their samples', async () => {
    const { a, b } = paired();
    const r = pearson(a, b);
    const accuracy = a.reduce((s, v) => s + v, 0) / a.length;
    expect(a).toHaveLength(200);
    expect(r).toBeGreaterThan(0.5);
    const run = await runCliInProcess(['power', '--baseline', dirA, '--current', dirB, '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const [task] = JSON.parse(run.stdout).tasks;
    expect(task).toMatchObject({
      task: 'quiz',
      metric: 'acc',
      items: 200,
      n: 200,
      correlationSource: 'measured',
    });
    expect(task.accuracy).toBeCloseTo(accuracy, 14);
    expect(task.measuredCorrelation).toBeCloseTo(r, 12);
    expect(task.correlation).toBeCloseTo(r, 12);
    // The MDE at the task's 200 items solves eq. 10 at the measured r (and at 0, unpaired).
    expect(task.paired).toBeCloseTo(eq10(accuracy, task.paired, r, 200), 9);
    expect(task.unpaired).toBeCloseTo(eq10(accuracy, task.unpaired, 0, 200), 9);

    const text = await runCliInProcess(['power', '--baseline', dirA, '--current', dirB]);
    expect(text.stdout).toContain(
      `quiz (acc, 200 items): accuracy 0.7500, second run 0.7000, r = ${r.toFixed(4)} (measured)`,
    );
    expect(text.stdout).toContain("r is the correlation between the two models' per-item correctness");
    expect(text.stdout).toContain("Here it is measured on the two runs' paired items.");

    // Items needed for +0.05 (eq. 9): z²·ω²/δ² at the measured r.
    const delta = await runCliInProcess([
      'power',
      '--baseline',
      dirA,
      '--current',
      dirB,
      '--delta',
      '0.05',
      '--json',
    ]);
    const [plan] = JSON.parse(delta.stdout).tasks;
    const va = 0.75 * 0.25;
    const vb = 0.8 * 0.2;
    expect(plan.pairedExact).toBeCloseTo((Z ** 2 * (va + vb - 2 * r * Math.sqrt(va * vb))) / 0.05 ** 2, 6);
    expect(plan.unpairedExact).toBeCloseTo((Z ** 2 * (va + vb)) / 0.05 ** 2, 6);
  });

  it('identical runs correlate at 1, more than 0.75 → 0.80 allows: the Fréchet bound is used, and said', async () => {
    const run = await runCliInProcess([
      'power',
      '--baseline',
      dirA,
      '--current',
      dirSame,
      '--delta',
      '0.05',
      '--json',
    ]);
    expect(run.status).toBe(0);
    const [plan] = JSON.parse(run.stdout).tasks;
    expect(plan.measuredCorrelation).toBe(1);
    // ρ ≤ √min(p(1−q)/(q(1−p)), q(1−p)/(p(1−q))) for 0/1 scores with means p = 0.75, q = 0.8.
    const high = Math.sqrt(Math.min((0.75 * 0.2) / (0.8 * 0.25), (0.8 * 0.25) / (0.75 * 0.2)));
    expect(plan.correlation).toBeCloseTo(high, 12);
    expect(plan.correlationClipped).toBe(1);
  });

  it('one run: its accuracy and items, the correlation 0.5 assumed and explained', async () => {
    const run = await runCliInProcess(['power', '--baseline', dirA]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('quiz (acc, 200 items): accuracy 0.7500, r = 0.5000 (assumed)');
    expect(run.stdout).toContain(
      'r = 0.5 is an assumption: real pairs vary widely (two real runs had r = 0.004',
    );
    const json = await runCliInProcess(['power', '--baseline', dirA, '--json']);
    const [task] = JSON.parse(json.stdout).tasks;
    expect(task).toMatchObject({ correlation: 0.5, correlationSource: 'assumed', measuredCorrelation: null });
    expect(task.paired).toBeCloseTo(eq10(0.75, task.paired, 0.5, 200), 9);
  });
});

describe('assay power: required flags and the correlation, explained', () => {
  it('--help marks --baseline (and gate its three) as required', async () => {
    const power = await runCliInProcess(['power', '--help']);
    expect(power.stdout).toMatch(/--baseline <accuracy\|run>[^]*?\(required\)\n {2}--current/);
    const gate = await runCliInProcess(['gate', '--help']);
    for (const flag of ['--baseline <run>', '--current <run>', '--max_drop <delta>'])
      expect(gate.stdout).toMatch(new RegExp(`${flag.replace(/[<>]/g, '.')}[^]*?\\(required\\)`));
  });

  it('an accuracy plan says the correlation was assumed, what r is and why it matters', async () => {
    const run = await runCliInProcess(['power', '--baseline', '0.72', '--delta', '0.01']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('per-item correlation r = 0.5 (assumed)');
    expect(run.stdout).toContain('the variance of the paired difference is σ²_A + σ²_B − 2r·σ_A·σ_B');
    expect(run.stdout).toContain('Measure it with --baseline RUN_A --current RUN_B.');
    const given = await runCliInProcess([
      'power',
      '--baseline',
      '0.72',
      '--delta',
      '0.01',
      '--correlation',
      '0.3',
    ]);
    expect(given.stdout).toContain('per-item correlation r = 0.3 (given)');
  });
});
