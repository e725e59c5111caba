/**
 * Tracking export from the real CLI (dist/, as a user runs it): `assay run --hf_hub_log_args` pushes to
 * the loopback Hub at the end of a run, `assay export --to mlflow` sends the same folder to a loopback
 * MLflow server, W&B is refused by name before any work, and no token appears in anything printed or
 * written. Needs `npm run build` first (npm test does it).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeHub, startFakeHub } from './fakes/hub.js';
import { type FakeHubWrites, fakeHubWrites } from './fakes/hub-writes.js';
import { type FakeMlflow, startFakeMlflow } from './fakes/mlflow.js';
import { bin } from './support/cli.js';
import { repoRoot, tempDir } from './support/helpers.js';

const HF_TOKEN = 'hf_e2eWriteToken5551234';
const MLFLOW_TOKEN = 'mlflow-e2e-token-77aa';
const task = path.join(repoRoot, 'test/fixtures/compare/words.yaml');

function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr }));
  });
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

let hub: FakeHub;
let writes: FakeHubWrites;
let mlflow: FakeMlflow;

beforeAll(async () => {
  writes = fakeHubWrites({ [HF_TOKEN]: 'ana' }, ['acme']);
  hub = await startFakeHub({}, writes);
  mlflow = await startFakeMlflow();
  mlflow.requireAuthorization = `Bearer ${MLFLOW_TOKEN}`;
});
afterAll(async () => {
  await hub?.close();
  await mlflow?.close();
});

describe('tracking export from the CLI', () => {
  test('run --hf_hub_log_args pushes at the end; export --to mlflow sends the same run; tokens stay secret', async () => {
    const out = tempDir('assay-export-e2e-');
    const env = {
      HF_TOKEN,
      HF_ENDPOINT: hub.endpoint,
      MLFLOW_TRACKING_URI: mlflow.uri,
      MLFLOW_TRACKING_TOKEN: MLFLOW_TOKEN,
    };
    const run = await runCli(
      [
        'run',
        '--model',
        'dummy',
        '--tasks',
        task,
        '--output_path',
        out,
        '--log_samples',
        '--hf_hub_log_args',
        'hub_results_org=acme,details_repo_name=evals,push_results_to_hub=True,push_samples_to_hub=True,public_repo=False',
      ],
      env,
    );
    expect(run.stderr).toMatch(
      /assay: pushed 4 files to dataset acme\/evals-private \(one commit\): http:\/\/127\.0\.0\.1:\d+\/datasets\/acme\/evals-private\n/,
    );
    expect(run.status).toBe(0);
    expect(writes.violations).toEqual([]);
    const repo = writes.repos.get('acme/evals-private');
    const stamp = /results_(.*)\.json/.exec(
      readdirSync(path.join(out, 'dummy')).find((name) => name.startsWith('results_')) ?? '',
    )?.[1];
    expect([...(repo?.files.keys() ?? [])].sort()).toEqual(
      [
        `dummy/results_${stamp}.json`,
        `dummy/samples_compare_words_${stamp}.jsonl`,
        `dummy/leaderboard_${stamp}.json`,
        'README.md',
      ].sort(),
    );

    const exported = await runCli(['export', out, '--to', 'mlflow', '--experiment_name', 'nightly'], env);
    expect(exported.stderr).toBe('assay: created MLflow experiment "nightly" (id 1)\n');
    expect(exported.stdout).toBe(
      `MLflow run run0001 in experiment "nightly": 16 params, 5 metrics, 5 tags in 1 batch, 3 artifacts\n${mlflow.uri}/#/experiments/1/runs/run0001\n`,
    );
    expect(exported.status).toBe(0);
    expect(mlflow.violations).toEqual([]);
    const results = JSON.parse(readFileSync(path.join(out, 'dummy', `results_${stamp}.json`), 'utf8'));
    const [mlflowRun] = mlflow.runs.values();
    // The export carries the results file's numbers as they are.
    const entry = results.results.compare_words;
    expect(mlflowRun.metrics.map((metric) => [metric.key, metric.value])).toEqual([
      ['compare_words/substring_contains', entry['substring_contains,none']],
      ['compare_words/substring_contains_stderr', entry['substring_contains_stderr,none']],
      ['compare_words/substring_contains_ci_low', entry['substring_contains_ci,none'][0]],
      ['compare_words/substring_contains_ci_high', entry['substring_contains_ci,none'][1]],
      ['compare_words/errored_samples', results.errors.by_task.compare_words ?? 0],
    ]);
    expect(results.partial).toBe(false);
    expect(Object.fromEntries(mlflowRun.tags)['assay.partial']).toBe('false');

    for (const output of [run.stdout, run.stderr, exported.stdout, exported.stderr]) {
      expect(output).not.toContain(HF_TOKEN);
      expect(output).not.toContain(MLFLOW_TOKEN);
    }
    for (const file of filesUnder(out)) {
      const content = readFileSync(file, 'utf8');
      expect(content).not.toContain(HF_TOKEN);
      expect(content).not.toContain(MLFLOW_TOKEN);
    }
  });

  test('W&B is refused by name, before any work (the run flags are checked in src/cli/run.test.ts)', async () => {
    const toWandb = await runCli(['export', tempDir('assay-export-e2e-'), '--to', 'wandb'], {});
    expect(toWandb.status).toBe(2);
    expect(toWandb.stderr).toMatch(
      /^assay: error: --to wandb: Weights & Biases export is not supported .*assay export RUN --to mlflow/,
    );
  });
});
