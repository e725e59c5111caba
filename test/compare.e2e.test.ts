/**
 * compare, gate and power through the CLI: its main() in process (test/support/cli-in-process.ts, stdout, stderr
 * and exit code as a child process returns them), and one real child process each for compare, gate and
 * power. Two "models" are the dummy backend under two seeds, run on the
 * fixture tasks in test/fixtures/compare; every expected number is recomputed here from the sample logs.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GateReport, LeaderboardDiff, RunComparison } from 'assay/compare';
import {
  type ReadSampleLine,
  type ResultsFile,
  readLeaderboard,
  readResultsFile,
  readSamples,
} from 'assay/results';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, readJson, tempDir } from './support/helpers.js';

const FIXTURES = 'test/fixtures/compare';
const TASKS = 'compare_suite,compare_words';

async function runModel(seed: number): Promise<string> {
  const out = tempDir(`assay-compare-${seed}-`);
  const run = await runCliInProcess([
    'run',
    '--model',
    'dummy',
    '--model_args',
    `seed=${seed}`,
    '--tasks',
    TASKS,
    '--include_path',
    FIXTURES,
    '--output_path',
    out,
    '--log_samples',
  ]);
  expect(run.stderr).not.toContain('internal error');
  expect(run.status).toBe(0);
  return out;
}

function samples(run: string, task: string): ReadSampleLine[] {
  return readSamples(findOne(path.join(run, 'dummy'), new RegExp(`^samples_${task}_.*\\.jsonl$`)));
}

/** Pairs by doc_hash (each fixture doc is unique), as the issue specifies, independently of the library. */
function paired(a: ReadSampleLine[], b: ReadSampleLine[], metric: string) {
  const byHash = new Map(b.map((line) => [line.doc_hash, line]));
  return a
    .filter((line) => byHash.has(line.doc_hash))
    .map((line) => ({
      id: line.doc_id as number,
      a: Number(line[metric]),
      b: Number(byHash.get(line.doc_hash)?.[metric]),
    }));
}

function choose(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** Two-sided exact binomial (p = ½) McNemar p-value: 2·P(X ≤ min), capped at 1. */
function exactMcNemar(n01: number, n10: number): number {
  const n = n01 + n10;
  let tail = 0;
  for (let i = 0; i <= Math.min(n01, n10); i++) tail += choose(n, i) / 2 ** n;
  return Math.min(1, 2 * tail);
}

const mean = (values: number[]) => values.reduce((x, y) => x + y, 0) / values.length;
const variance = (values: number[]) => {
  const m = mean(values);
  return values.reduce((acc, value) => acc + (value - m) ** 2, 0) / (values.length - 1);
};

let runA = '';
let runB = '';

beforeAll(async () => {
  runA = await runModel(1);
  runB = await runModel(2);
});

describe('per-run statistics in results.json', () => {
  it('records the CI method, the clustered stderr (Miller eq. 4) and the within-question variance', async () => {
    const results = readResultsFile(findOne(path.join(runA, 'dummy'), /^results_.*\.json$/));
    const quiz = samples(runA, 'compare_quiz');
    const scores = quiz.map((line) => line.acc as number);
    const n = scores.length;
    const m = mean(scores);
    let diagonal = 0;
    const clusterSums = new Map<string, number>();
    for (const line of quiz) {
      const residual = (line.acc as number) - m;
      diagonal += residual ** 2;
      const { subject } = line.doc as { subject: string };
      clusterSums.set(subject, (clusterSums.get(subject) ?? 0) + residual);
    }
    let clusterSquares = 0;
    for (const sum of clusterSums.values()) clusterSquares += sum ** 2;
    const eq4 = Math.sqrt(diagonal / (n * (n - 1)) + (clusterSquares - diagonal) / n ** 2);
    const cr1 = Math.sqrt((clusterSquares / n ** 2) * (10 / 9));

    // assay's statistics block, typed as the contract writes it.
    const stats = results.stats as ResultsFile['stats'];
    const quizStats = stats.compare_quiz['acc,none'];
    expect(quizStats.ci_method).toBe('wilson');
    expect(quizStats.ci_level).toBe(0.95);
    expect(quizStats.clustered?.by).toBe('subject');
    expect(quizStats.clustered?.clusters).toBe(10);
    expect(quizStats.clustered?.stderr).toBeCloseTo(eq4, 14);
    expect(quizStats.clustered?.stderr_cr1).toBeCloseTo(cr1, 14);
    expect(quizStats.clustered?.naive_stderr).toBeCloseTo(
      results.results.compare_quiz['acc_stderr,none'] as number,
      14,
    );
    expect(quizStats.clustered?.cluster_correction_applied).toBe(false);
    expect(stats.compare_suite['acc,none'].ci_method).toBe('normal');

    // Per-repeat scores: substring_contains of "yes" in each of the 4 sampled answers.
    const words = samples(runA, 'compare_words');
    const perQuestion = words.map((line) =>
      (line.resps[0] as string[]).map((answer) => (answer.toLowerCase().includes('yes') ? 1 : 0)),
    );
    expect(perQuestion.every((scoresOfQuestion) => scoresOfQuestion.length === 4)).toBe(true);
    const within = mean(perQuestion.map(variance));
    const questionMeans = perQuestion.map(mean);
    const repeats = stats.compare_words['substring_contains,none'].repeats;
    expect(repeats?.k).toBe(4);
    expect(repeats?.questions).toBe(40);
    expect(within).toBeGreaterThan(0);
    expect(repeats?.within_question_variance).toBeCloseTo(within, 14);
    expect(repeats?.variance_of_question_means).toBeCloseTo(variance(questionMeans), 14);
    expect(repeats?.variance_of_mean).toBeCloseTo(variance(questionMeans) / 40, 14);
    // The plain ratio E[σ²/K]/Var(question means) is 1.0217 here: sampling error put the variance of the
    // question means below the noise alone. A share is at most 1 (the between-question variance is
    // truncated at 0), so the report says 1.
    const ratio = within / 4 / variance(questionMeans);
    expect(ratio).toBeGreaterThan(1);
    expect(repeats?.within_share).toBe(Math.min(1, ratio));
  });
});

describe('assay compare', () => {
  it('pairs by doc_hash and reports McNemar, flips, t, Holm and verdicts that match the sample logs', async () => {
    const run = runCli(['compare', runA, runB, '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as RunComparison;
    expect(report.tasks.map((row) => row.name)).toEqual(['compare_mini', 'compare_quiz', 'compare_words']);
    const rawP: number[] = [];
    for (const row of report.tasks) {
      const metric = row.name === 'compare_words' ? 'substring_contains' : 'acc';
      const pairs = paired(samples(runA, row.name), samples(runB, row.name), metric);
      const rightToWrong = pairs.filter((pair) => pair.a === 1 && pair.b === 0).map((pair) => pair.id);
      const wrongToRight = pairs.filter((pair) => pair.a === 0 && pair.b === 1).map((pair) => pair.id);
      expect(row.n).toBe(pairs.length);
      expect(row.unpaired).toEqual({ a: 0, b: 0 });
      expect(row.meanA).toBeCloseTo(mean(pairs.map((pair) => pair.a)), 14);
      expect(row.meanB).toBeCloseTo(mean(pairs.map((pair) => pair.b)), 14);
      expect(row.difference).toBeCloseTo(row.meanB - row.meanA, 14);
      expect(row.flips?.rightToWrong).toEqual({ count: rightToWrong.length, docIds: rightToWrong });
      expect(row.flips?.wrongToRight).toEqual({ count: wrongToRight.length, docIds: wrongToRight });
      expect(row.mcnemar?.n01).toBe(rightToWrong.length);
      expect(row.mcnemar?.n10).toBe(wrongToRight.length);
      const discordant = rightToWrong.length + wrongToRight.length;
      expect(row.mcnemar?.method).toBe(discordant < 25 ? 'exact' : 'chi-square-cc');
      expect(row.mcnemar?.exactPValue).toBeCloseTo(
        exactMcNemar(rightToWrong.length, wrongToRight.length),
        12,
      );
      expect(row.defaultTest).toBe('mcnemar');
      expect(row.pValue).toBe(row.mcnemar?.pValue);
      const d = pairs.map((pair) => pair.b - pair.a);
      expect(row.tTest.t).toBeCloseTo(mean(d) / Math.sqrt(variance(d) / d.length), 10);
      expect(row.tTest.degreesOfFreedom).toBe(d.length - 1);
      rawP.push(row.pValue);
    }
    // compare_mini has 7 discordant pairs (exact test), compare_quiz 71 (χ² with continuity correction).
    expect(report.tasks[0].mcnemar?.method).toBe('exact');
    expect(report.tasks[1].mcnemar?.method).toBe('chi-square-cc');
    // Holm by hand: sort, scale by m − rank, running max, capped at 1.
    const order = rawP.map((_, i) => i).sort((x, y) => rawP[x] - rawP[y]);
    const holm = new Array<number>(3);
    let running = 0;
    order.forEach((index, rank) => {
      running = Math.max(running, Math.min(1, (3 - rank) * rawP[index]));
      holm[index] = running;
    });
    for (const [i, row] of report.tasks.entries()) expect(row.pValueAdjusted).toBeCloseTo(holm[i], 14);
    // compare_words: B − A = +0.2, raw exact McNemar p = 0.0768 but Holm-adjusted above 0.05, so no claim.
    const words = report.tasks[2];
    expect(words.difference).toBeCloseTo(0.2, 14);
    expect(words.outcome).toBe('no detectable difference');
    expect(words.verdict).toMatch(
      /^no detectable difference \(p_adj = 0\.230, Holm\); at n = 40, the MDE at 80% power is 0\.\d{4}$/,
    );
    // MDE = (z.975 + z.8)·sd(d)/√n with the observed differences.
    const d = paired(
      samples(runA, 'compare_words'),
      samples(runB, 'compare_words'),
      'substring_contains',
    ).map((pair) => pair.b - pair.a);
    expect(words.minimumDetectableEffect).toBeCloseTo(
      (1.959963984540054 + 0.8416212335729143) * Math.sqrt(variance(d) / 40),
      12,
    );
    // The group row pools compare_quiz and compare_mini items.
    expect(report.groups).toHaveLength(1);
    expect(report.groups[0].name).toBe('compare_suite');
    expect(report.groups[0].n).toBe(256);
    expect(report.groups[0].tasks).toEqual(['compare_mini', 'compare_quiz']);
  });

  it('a run against itself: no flips, nothing detectable, with BH', async () => {
    const run = await runCliInProcess([
      'compare',
      runA,
      runA,
      '--tasks',
      'compare_quiz',
      '--adjust',
      'bh',
      '--format',
      'json',
    ]);
    expect(run.status).toBe(0);
    const [row] = (JSON.parse(run.stdout) as RunComparison).tasks;
    expect(row.difference).toBe(0);
    expect(row.mcnemar?.discordant).toBe(0);
    expect(row.pValueAdjusted).toBe(1);
    expect(row.tTest.zeroVariance).toBe(true);
    expect(row.wilcoxon).toEqual({ wilcox: null, pratt: null, zsplit: null });
    expect(row.mdeVariance).toBe('accuracy-rho-0.5');
    expect(row.outcome).toBe('no detectable difference');
  });

  it('renders table and markdown, and counts unpaired samples', async () => {
    // Drop two docs from B's quiz log: they become unpaired in A.
    const dir = path.join(runB, 'dummy');
    const file = findOne(dir, /^samples_compare_quiz_.*\.jsonl$/);
    const original = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, `${original.split('\n').filter(Boolean).slice(2).join('\n')}\n`);
      const markdown = await runCliInProcess([
        'compare',
        runA,
        runB,
        '--tasks',
        'compare_quiz',
        '--format',
        'markdown',
        // Issue 32: the table and each row's details are the full battery, shown under --verbose.
        '--verbose',
      ]);
      expect(markdown.status).toBe(0);
      expect(markdown.stdout).toContain('| Task ');
      expect(markdown.stdout).toContain('n = 238 pairs; unpaired 2 in A, 0 in B');
      // The lead line says what pairing left out, without --verbose.
      const lead = await runCliInProcess(['compare', runA, runB, '--tasks', 'compare_quiz']);
      expect(lead.stdout).toMatch(
        /^compare_quiz \(acc, 238 paired items; 2 only in A and 0 only in B left out\): B /m,
      );
      const table = await runCliInProcess(['compare', runA, runB, '--verbose']);
      expect(table.status).toBe(0);
      expect(table.stdout).toMatch(/^Task\s+Metric\s+n\s+A\s+B\s+B − A/m);
      expect(table.stdout).toContain('flips A right→B wrong');
    } finally {
      writeFileSync(file, original);
    }
  });

  it('bad input exits 2 with a message', async () => {
    const missing = await runCliInProcess(['compare', path.join(runA, 'nope'), runB]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('run not found');
    const noLogs = tempDir();
    const plain = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/arithmetic.jsonl',
      '--output_path',
      noLogs,
    ]);
    expect(plain.status).toBe(0);
    // Issue 20: a run without sample logs is compared on its leaderboard (here it shares no task with B).
    const withoutSamples = await runCliInProcess(['compare', noLogs, runB]);
    expect(withoutSamples.status).toBe(0);
    expect(withoutSamples.stdout).toContain('no sample logs beside both runs, so no paired tests');
    expect(withoutSamples.stdout).toContain('only in A: arithmetic');
    const metricWithoutSamples = await runCliInProcess(['compare', noLogs, runB, '--metric', 'acc']);
    expect(metricWithoutSamples.status).toBe(2);
    expect(metricWithoutSamples.stderr).toContain('--metric needs sample logs beside both runs');
    const unknownTask = await runCliInProcess(['compare', runA, runB, '--tasks', 'compare_quizz']);
    expect(unknownTask.status).toBe(2);
    expect(unknownTask.stderr).toContain('did you mean compare_quiz');
    const unknownMetric = await runCliInProcess([
      'compare',
      runA,
      runB,
      '--tasks',
      'compare_quiz',
      '--metric',
      'f1',
    ]);
    expect(unknownMetric.status).toBe(2);
    expect(unknownMetric.stderr).toContain('task compare_quiz has no metric f1');
    rmSync(noLogs, { recursive: true, force: true });
  });

  it('two leaderboards: paired tests when sample logs are beside them, else old, new, Δ and its interval', async () => {
    const leaderboardOf = (run: string) => findOne(path.join(run, 'dummy'), /^leaderboard_.*\.json$/);
    // Beside their results and sample logs: the paired tests, as for the runs themselves.
    const beside = await runCliInProcess(['compare', leaderboardOf(runA), leaderboardOf(runB)]);
    expect(beside.status).toBe(0);
    expect(beside.stdout).toContain('Samples paired by doc_hash');
    // Alone (copied away from their runs): a diff of the two files.
    const alone = tempDir();
    const [fileA, fileB] = [runA, runB].map((run, i) => {
      const file = path.join(alone, `leaderboard_${i}.json`);
      writeFileSync(file, readFileSync(leaderboardOf(run)));
      return file;
    });
    const json = await runCliInProcess(['compare', fileA, fileB, '--format', 'json']);
    expect(json.stderr).toBe('');
    expect(json.status).toBe(0);
    const diff = JSON.parse(json.stdout) as LeaderboardDiff;
    const [a, b] = [fileA, fileB].map((file) => readLeaderboard(file));
    expect(diff.kind).toBe('leaderboard-diff');
    expect(diff.tasks.map((row) => row.task)).toEqual(Object.keys(a.tasks));
    for (const row of diff.tasks) {
      const [old, now] = [a.tasks[row.task], b.tasks[row.task]];
      expect([row.old, row.new]).toEqual([old.value, now.value]);
      // Every task of these runs is scored: its value and interval are numbers (the contract allows null).
      const [oldValue, newValue] = [old.value as number, now.value as number];
      const [oldCi, newCi] = [old.ci as [number, number], now.ci as [number, number]];
      expect(row.delta).toBeCloseTo(newValue - oldValue, 14);
      // Newcombe's method 10 / MOVER from the two files' own Wilson intervals, recomputed here.
      const low = newValue - oldValue - Math.hypot(newValue - newCi[0], oldCi[1] - oldValue);
      const high = newValue - oldValue + Math.hypot(newCi[1] - newValue, oldValue - oldCi[0]);
      expect(row.deltaCi?.[0]).toBeCloseTo(low, 12);
      expect(row.deltaCi?.[1]).toBeCloseTo(high, 12);
      expect(row.exceeds).toBe(low > 0 || high < 0);
    }
    const table = await runCliInProcess(['compare', fileA, fileB]);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^Task\s+Metric\s+A\s+B\s+Δ\s+95% CI of Δ\s+Exceeds\s+Change/m);
    rmSync(alone, { recursive: true, force: true });
  });
});

describe('assay gate', () => {
  it('a run gated against itself: exit 3 at a margin its n cannot rule out, exit 0 at one it can', async () => {
    const report = tempDir();
    const json = path.join(report, 'gate.json');
    // No item flips, but 240 items cannot rule out a 0.005 drop: a model that lost 0.005 on every item
    // would show no flip among 240 with probability 0.995^240 = 0.30. Tango's test (continuity 1) needs
    // about 894 unflipped items for that margin.
    const tight = await runCliInProcess([
      'gate',
      '--baseline',
      runA,
      '--current',
      runA,
      '--max-drop',
      '0.005',
      '--json',
      json,
    ]);
    expect(tight.status).toBe(3);
    expect(tight.stdout).toContain('gate undecided (exit 3)');
    expect(tight.stdout).toMatch(/compare_quiz .*about 894 paired items would decide/);
    const undecided = readJson<GateReport>(json);
    expect(undecided.tasks.map((task) => [task.status, task.method])).toEqual([
      ['underpowered', 'tango-score'],
      ['underpowered', 'tango-score'],
      ['underpowered', 'tango-score'],
    ]);
    // At a margin of 0.25 even the 16 items of compare_mini decide: Z = (16·0.25 − 1)/√(16·0.25·0.75) = 1.73.
    const run = await runCliInProcess([
      'gate',
      '--baseline',
      runA,
      '--current',
      runA,
      '--max-drop',
      '0.25',
      '--json',
      json,
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('gate passed');
    expect(run.stdout).toContain('test: Tango score test for matched pairs, continuity correction 1');
    const written = readJson<GateReport>(json);
    expect(written.exitCode).toBe(0);
    expect(written.tasks.map((task) => task.status)).toEqual(['pass', 'pass', 'pass']);
  });

  it('exit 1: B significantly worse than the margin, by the Tango score test on the flips counted here', async () => {
    const run = runCli([
      'gate',
      '--baseline',
      runB,
      '--current',
      runA,
      '--max-drop',
      '0.005',
      '--tasks',
      'compare_words',
      '--format',
      'json',
    ]);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as GateReport;
    const [task] = report.tasks;
    const pairs = paired(
      samples(runB, 'compare_words'),
      samples(runA, 'compare_words'),
      'substring_contains',
    );
    const d = pairs.map((pair) => pair.b - pair.a);
    const se = Math.sqrt(variance(d) / d.length);
    expect(task.improvement).toBeCloseTo(-0.2, 14);
    expect(task.standardError).toBeCloseTo(se, 14);
    // 12 items went right → wrong and 4 wrong → right among 40. Tango's Z at θ₀ = −0.005 with the
    // continuity shift +1: (4 − 12 + 0.2 + 1)/√(40·(2q̃ − 0.005·1.005)) = −1.70319, q̃ the restricted MLE
    // (SciPy, numerically maximized likelihood: norm.cdf(−1.7031892) = 0.0442663); the one-sided 95%
    // bounds invert the same test (scipy.optimize.brentq).
    expect(pairs.filter((pair) => pair.a === 1 && pair.b === 0)).toHaveLength(12);
    expect(pairs.filter((pair) => pair.a === 0 && pair.b === 1)).toHaveLength(4);
    expect(task.method).toBe('tango-score');
    expect(task.pInferiority).toBeCloseTo(0.0442663318, 8);
    expect(task.pNonInferiority).toBeCloseTo(0.986242301, 8);
    expect(task.upperBound).toBeCloseTo(-0.0112032365, 8);
    expect(task.lowerBound).toBeCloseTo(-0.3795258668, 8);
    expect(task.status).toBe('fail');
    expect(task.reason).toContain('significantly worse than the margin');
    expect(report.exitCode).toBe(1);
  });

  it('exit 3: too few items to tell a 0.005 drop apart', async () => {
    const run = await runCliInProcess([
      'gate',
      '--baseline',
      runA,
      '--current',
      runB,
      '--max-drop',
      '0.005',
      '--tasks',
      'compare_quiz',
    ]);
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(
      /^UNDECIDED compare_quiz \(acc, none\), n = 240: .*cannot decide at n = 240; about \d+ paired items would decide/m,
    );
    expect(run.stdout).toContain('gate undecided (exit 3)');
  });

  it('threshold mode keeps the plain rule', async () => {
    const worse = await runCliInProcess([
      'gate',
      '--baseline',
      runB,
      '--current',
      runA,
      '--max-drop',
      '0.005',
      '--tasks',
      'compare_words',
      '--mode',
      'threshold',
    ]);
    expect(worse.status).toBe(1);
    expect(worse.stdout).toContain('drops by more than the margin 0.005 (threshold rule, no test)');
    const within = await runCliInProcess([
      'gate',
      '--baseline',
      runA,
      '--current',
      runB,
      '--max-drop',
      '0.005',
      '--tasks',
      'compare_quiz',
      '--mode',
      'threshold',
    ]);
    expect(within.status).toBe(0);
  });

  it('missing --max-drop exits 2', async () => {
    const run = await runCliInProcess(['gate', '--baseline', runA, '--current', runB]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--max-drop is required');
  });
});

describe('assay power', () => {
  const z = 1.959963984540054 + 0.8416212335729143;
  it('items needed, paired and unpaired (Miller eq. 9)', async () => {
    const run = runCli(['power', '--baseline', '0.72', '--delta', '0.01', '--json']);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    const va = 0.72 * 0.28;
    const vb = 0.73 * 0.27;
    const paired = va + vb - 2 * 0.5 * Math.sqrt(va * vb);
    expect(report.pairedExact).toBeCloseTo((z ** 2 * paired) / 0.01 ** 2, 6);
    expect(report.unpairedExact).toBeCloseTo((z ** 2 * (va + vb)) / 0.01 ** 2, 6);
    expect(report.paired).toBe(Math.ceil(report.pairedExact));
    expect(report.paired).toBe(15648);
    expect(report.unpaired).toBe(31294);
    const text = await runCliInProcess(['power', '--baseline', '0.72', '--delta', '0.01']);
    expect(text.stdout).toContain('paired (both models on the same items): 15648');
  });

  it('minimum detectable effect at n (Miller eq. 10), which solves back to the sample size', async () => {
    const run = await runCliInProcess([
      'power',
      '--baseline',
      '0.72',
      '--n',
      '14042',
      '--correlation',
      '0.5',
      '--json',
    ]);
    expect(run.status).toBe(0);
    const { paired, unpaired } = JSON.parse(run.stdout);
    const va = 0.72 * 0.28;
    const check = (delta: number, rho: number) => {
      const vb = (0.72 + delta) * (0.28 - delta);
      return z * Math.sqrt((va + vb - 2 * rho * Math.sqrt(va * vb)) / 14042);
    };
    expect(paired).toBeCloseTo(check(paired, 0.5), 10);
    expect(unpaired).toBeCloseTo(check(unpaired, 0), 10);
  });

  it('an MDE beyond the headroom is "not reachable", and an impossible correlation exits 2 with its bound', async () => {
    // Before: a paired MDE of 0.1329 over a baseline of 0.9, which leaves 0.1.
    const high = await runCliInProcess(['power', '--baseline', '0.9', '--n', '40']);
    expect(high.status).toBe(0);
    expect(high.stdout).toContain('paired: not reachable at this n (no improvement up to the headroom 0.1');
    // Two 0/1 scores with means 0.72 and 0.73 correlate at most 0.975; 0.99 gave 315 items instead of 778.
    const rho = await runCliInProcess([
      'power',
      '--baseline',
      '0.72',
      '--delta',
      '0.01',
      '--correlation',
      '0.99',
    ]);
    expect(rho.status).toBe(2);
    expect(rho.stderr).toContain('--correlation 0.99 is not possible for accuracies 0.72 and 0.73');
    expect(rho.stderr).toContain('max correlation 0.975');
  });

  it('needs exactly one of --delta and --n', async () => {
    const run = await runCliInProcess(['power', '--baseline', '0.72']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('exactly one of --delta');
  });
});
