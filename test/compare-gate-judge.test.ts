/**
 * Issue 31 req 5: compare and gate on judge metrics. Runs are written in assay's layout (bench/stats.ts's
 * writeRun) and given a results.json `judges` block as the judge stage writes it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeRun } from '../bench/stats.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, tempDir } from './support/helpers.js';

const agreement = (estimate: number, low: number, high: number) => ({
  estimate,
  low,
  high,
  undefined_replicates: 0,
});

function judge(overrides: Record<string, unknown> = {}, statistics: Record<string, unknown> | null = {}) {
  return {
    metric: 'acc',
    model: 'local-chat-completions',
    model_args: { model: 'judge-7b', base_url: 'http://127.0.0.1:9/v1' },
    rubric_sha256: 'a'.repeat(64),
    mode: 'reference-based',
    verdict: { form: 'label', labels: ['correct', 'incorrect'] },
    requests: 12,
    errored: 0,
    ...(statistics === null
      ? {}
      : {
          statistics: {
            labels_file: 'labels.jsonl',
            confidence: 0.95,
            labelled: 30,
            unlabelled: 0,
            bootstrap: { iterations: 1000, seed: 1234 },
            agreement: {
              accuracy: agreement(0.8, 0.65, 0.93),
              cohen_kappa: agreement(0.55, 0.3, 0.8),
              krippendorff_alpha: agreement(0.54, 0.28, 0.79),
              krippendorff_level: 'nominal',
            },
            judge_mean: { estimate: 0.5, standard_error: 0.1, low: 0.3, high: 0.7 },
            labels_mean: { estimate: 0.5, standard_error: 0.1, low: 0.3, high: 0.7 },
            ppi: { estimate: 0.5, standard_error: 0.1, low: 0.3, high: 0.7, lambda: 0.5 },
            moments: { label_variance: 0.25, judge_variance: 0.25, covariance: 0.15, documents: 30 },
            ...statistics,
          },
        }),
    ...overrides,
  };
}

let root = '';
let count = 0;
beforeAll(() => {
  root = tempDir('assay-judge-compare-');
});

/** Two runs of 12 docs (A: 8 right, B: 10 right, B never wrong where A was right), with these judges. */
async function runs(
  judgeA: Record<string, unknown> | undefined,
  judgeB: Record<string, unknown> | undefined,
) {
  count += 1;
  const dirA = path.join(root, `${count}`, 'a');
  const dirB = path.join(root, `${count}`, 'b');
  await writeRun(dirA, 1, ['judged'], 12, (_, doc) => (doc < 8 ? 1 : 0));
  await writeRun(dirB, 2, ['judged'], 12, (_, doc) => (doc < 10 ? 1 : 0));
  for (const [dir, entry] of [
    [dirA, judgeA],
    [dirB, judgeB],
  ] as const) {
    if (!entry) continue;
    const file = findOne(dir, /^results_.*\.json$/);
    const results = JSON.parse(readFileSync(file, 'utf8'));
    results.judges = { judged: [entry] };
    writeFileSync(file, JSON.stringify(results));
  }
  return { dirA, dirB };
}

describe('assay compare on a judge metric', () => {
  it('one judge in both runs: the difference, with the judge and its κ, α and accuracy beside it', async () => {
    const { dirA, dirB } = await runs(judge(), judge());
    const run = await runCliInProcess(['compare', dirA, dirB, '--format', 'json']);
    expect(run.status).toBe(0);
    const [row] = JSON.parse(run.stdout).tasks;
    // 8/12 → 10/12: B − A = 2/12.
    expect(row.difference).toBeCloseTo(2 / 12, 12);
    expect(row.judge).toEqual({
      model: 'local-chat-completions',
      rubricSha256: 'a'.repeat(64),
      agreement: {
        a: [
          { statistic: 'cohen_kappa', estimate: 0.55, low: 0.3, high: 0.8, labelled: 30 },
          { statistic: 'krippendorff_alpha', estimate: 0.54, low: 0.28, high: 0.79, labelled: 30 },
          { statistic: 'accuracy', estimate: 0.8, low: 0.65, high: 0.93, labelled: 30 },
        ],
        b: [
          { statistic: 'cohen_kappa', estimate: 0.55, low: 0.3, high: 0.8, labelled: 30 },
          { statistic: 'krippendorff_alpha', estimate: 0.54, low: 0.28, high: 0.79, labelled: 30 },
          { statistic: 'accuracy', estimate: 0.8, low: 0.65, high: 0.93, labelled: 30 },
        ],
      },
    });
    const text = await runCliInProcess(['compare', dirA, dirB]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(
      'judge local-chat-completions (rubric sha256 aaaaaaaaaaaa), the same in both runs; agreement with the labelled slice: run A κ 0.550 [0.300, 0.800], 30 labelled; α 0.540 [0.280, 0.790], 30 labelled; accuracy 0.800 [0.650, 0.930], 30 labelled;',
    );
  });

  it('a verdict read by log-likelihood and one read from the answer are two judges', async () => {
    const { dirA, dirB } = await runs(
      judge({ verdict: { type: 'score', min: 1, max: 5 } }),
      judge({ verdict: { type: 'score', min: 1, max: 5, by: 'loglikelihood' } }),
    );
    const run = await runCliInProcess(['compare', dirA, dirB, '--metric', 'acc', '--tasks', 'judged']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'acc of judged is not compared: the runs were judged by different judges (verdict by generate in run A and by loglikelihood in run B)',
    );
    // `by: generate` written out is the default it stands for.
    const same = await runs(
      judge({ verdict: { type: 'score', min: 1, max: 5 } }),
      judge({ verdict: { type: 'score', min: 1, max: 5, by: 'generate' } }),
    );
    expect((await runCliInProcess(['compare', same.dirA, same.dirB])).status).toBe(0);
  });

  it('a verdict with other options (a 1-5 scale and a 1-9 one) makes two judges, however it is read', async () => {
    const { dirA, dirB } = await runs(
      judge({ verdict: { type: 'score', min: 1, max: 5, by: 'loglikelihood' } }),
      judge({ verdict: { type: 'score', min: 1, max: 9, by: 'loglikelihood' } }),
    );
    const run = await runCliInProcess(['compare', dirA, dirB, '--metric', 'acc', '--tasks', 'judged']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'acc of judged is not compared: the runs were judged by different judges (verdict {"max":5,"min":1,"type":"score"} in run A and {"max":9,"min":1,"type":"score"} in run B)',
    );
  });

  it('judge args key order does not make two judges', async () => {
    const { dirA, dirB } = await runs(
      judge(),
      judge({ model_args: { base_url: 'http://127.0.0.1:9/v1', model: 'judge-7b' } }),
    );
    const run = await runCliInProcess(['compare', dirA, dirB, '--format', 'json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).tasks[0].judge.model).toBe('local-chat-completions');
  });

  it('different rubrics: the paired comparison is refused, naming both sha256s', async () => {
    const { dirA, dirB } = await runs(judge(), judge({ rubric_sha256: 'b'.repeat(64) }));
    const run = await runCliInProcess(['compare', dirA, dirB, '--metric', 'acc', '--tasks', 'judged']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'acc of judged is not compared: the runs were judged by different judges (rubric sha256 aaaaaaaaaaaa in run A and bbbbbbbbbbbb in run B)',
    );
  });

  it('different judge models and args: refused, naming each difference', async () => {
    const { dirA, dirB } = await runs(judge(), judge({ model: 'vllm', model_args: { model: 'judge-70b' } }));
    const run = await runCliInProcess(['compare', dirA, dirB]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('judge model local-chat-completions in run A and vllm in run B');
    expect(run.stderr).toContain(
      'judge model_args {"base_url":"http://127.0.0.1:9/v1","model":"judge-7b"} in run A and {"model":"judge-70b"} in run B',
    );
  });

  it('a judge recorded in one run only: refused', async () => {
    const { dirA, dirB } = await runs(undefined, judge());
    const run = await runCliInProcess(['compare', dirA, dirB]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('acc of judged is not compared: run A records no judge for it');
  });
});

describe('assay gate --min-judge-agreement', () => {
  // Threshold mode: B − A = +2/12 is within any margin, so only the judge's agreement can fail the task.
  const gate = (dirA: string, dirB: string, ...flags: string[]) =>
    runCliInProcess([
      'gate',
      '--baseline',
      dirA,
      '--current',
      dirB,
      '--max-drop',
      '0.05',
      '--mode',
      'threshold',
      ...flags,
    ]);

  it('κ 0.55 below 0.6: fails, naming the judge, the statistic and the threshold', async () => {
    const { dirA, dirB } = await runs(judge(), judge());
    const run = await gate(dirA, dirB, '--min-judge-agreement', '0.6');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      'FAIL      judged (acc, none), n = 12: the judge (local-chat-completions) of acc agrees with the labelled slice below --min_judge_agreement 0.6: κ 0.550 [0.300, 0.800], 30 labelled; its scores are not gated on; B − A = +0.1667 is within the margin 0.05 (threshold rule, no test)',
    );
    expect(run.stdout).toContain(
      "gate failed: judged's judge agreement is below --min_judge_agreement or unknown (mode threshold",
    );
  });

  it('κ 0.55 at threshold 0.5 passes; accuracy 0.8 at 0.75 passes; α 0.54 at 0.6 fails', async () => {
    const { dirA, dirB } = await runs(judge(), judge());
    const kappa = await gate(dirA, dirB, '--min-judge-agreement', '0.5');
    expect(kappa.status).toBe(0);
    expect(kappa.stdout).toContain('judge local-chat-completions: κ 0.550 [0.300, 0.800], 30 labelled');
    const accuracy = await gate(dirA, dirB, '--min-judge-agreement', '0.75', '--judge-agreement', 'accuracy');
    expect(accuracy.status).toBe(0);
    const alpha = await gate(
      dirA,
      dirB,
      '--min-judge-agreement',
      '0.6',
      '--judge-agreement',
      'krippendorff_alpha',
    );
    expect(alpha.status).toBe(1);
    expect(alpha.stdout).toContain('α 0.540 [0.280, 0.790], 30 labelled');
  });

  it('no labelled slice: fails when an agreement is required, passes without the flag', async () => {
    const { dirA, dirB } = await runs(judge({}, null), judge({}, null));
    const required = await gate(dirA, dirB, '--min-judge-agreement', '0.4', '--format', 'json');
    expect(required.status).toBe(1);
    const [task] = JSON.parse(required.stdout).tasks;
    expect(task.status).toBe('fail');
    expect(task.judgeAgreement).toBeNull();
    expect(task.reason).toContain(
      'has no cohen_kappa with a labelled slice (agreement unknown (no labelled slice',
    );
    const plain = await gate(dirA, dirB);
    expect(plain.status).toBe(0);
  });

  it('a threshold above 1 (no agreement statistic reaches it) stops before any work, naming the flag', async () => {
    const { dirA, dirB } = await runs(judge(), judge());
    const run = await gate(dirA, dirB, '--min_judge_agreement', '1.5');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--min_judge_agreement must be a number at most 1, got 1.5');
  });
});
