/**
 * MLflow export against a loopback tracking server written from MLflow's REST API reference
 * (test/fakes/mlflow.ts), which checks every request. Expected values are the hand-written
 * numbers of test/fixtures/export/run-folder.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type FakeMlflow, startFakeMlflow } from '../../test/fakes/mlflow.js';
import { STAMP, writeRunFolder } from '../../test/fixtures/export/run-folder.js';
import { tempDir } from '../../test/support/helpers.js';
import { AssayError } from '../errors.js';
import type { RunEvent } from '../events.js';
import { exportRun } from './export-run.js';
import { type MlflowSettings, mlflowSettingsFromEnv } from './mlflow.js';

let server: FakeMlflow;
const NOW = 1714568400000;

beforeEach(async () => {
  server = await startFakeMlflow();
});
afterEach(async () => {
  await server.close();
});

function settings(extra: Partial<MlflowSettings> = {}): MlflowSettings {
  return { trackingUri: server.uri, experimentName: 'evals', artifacts: true, ...extra };
}

async function exportTo(location: string, extra: Partial<MlflowSettings> = {}) {
  return exportRun(location, { to: 'mlflow', mlflow: settings(extra) }, { now: () => NOW });
}

async function failure(promise: Promise<unknown>): Promise<AssayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AssayError);
    return error as AssayError;
  }
  throw new Error('expected the export to fail');
}

describe('assay export --to mlflow', () => {
  test('reports the artifacts uploaded, one file at a time, to the listener', async () => {
    const run = writeRunFolder(tempDir('assay-mlflow-'));
    const events: RunEvent[] = [];
    await exportRun(
      run.outputPath,
      { to: 'mlflow', mlflow: settings() },
      { now: () => NOW, listener: (event) => events.push(event) },
    );
    const id = 'mlflow:run0001';
    // The run folder's four files: results, two sample logs, leaderboard.
    expect(events.map((event) => ('done' in event ? event.done : undefined))).toEqual([
      undefined,
      1,
      2,
      3,
      4,
      4,
    ]);
    expect(events[0]).toEqual({
      type: 'operation-start',
      id,
      label: 'upload artifacts to MLflow run run0001',
      unit: 'files',
      total: 4,
    });
    expect(events.at(-1)).toMatchObject({ type: 'operation-end', id, done: 4 });
  });

  test('a run becomes one MLflow run: params, metrics with stderr and interval, tags, artifacts', async () => {
    const run = writeRunFolder(tempDir('assay-mlflow-'));
    const report = await exportTo(run.outputPath);

    expect(server.violations).toEqual([]);
    expect(server.requests.map((request) => `${request.method} ${request.path.replace(/\?.*/, '')}`)).toEqual(
      [
        'GET /api/2.0/mlflow/experiments/get-by-name',
        'POST /api/2.0/mlflow/experiments/create',
        'GET /api/2.0/mlflow/experiments/get',
        'POST /api/2.0/mlflow/runs/create',
        'POST /api/2.0/mlflow/runs/log-batch',
        `PUT /api/2.0/mlflow-artifacts/artifacts/1/run0001/artifacts/results_${STAMP}.json`,
        `PUT /api/2.0/mlflow-artifacts/artifacts/1/run0001/artifacts/samples_arc_easy_${STAMP}.jsonl`,
        `PUT /api/2.0/mlflow-artifacts/artifacts/1/run0001/artifacts/samples_gsm8k_${STAMP}.jsonl`,
        `PUT /api/2.0/mlflow-artifacts/artifacts/1/run0001/artifacts/leaderboard_${STAMP}.json`,
        'POST /api/2.0/mlflow/runs/update',
      ],
    );
    expect(server.requests[0].path).toBe('/api/2.0/mlflow/experiments/get-by-name?experiment_name=evals');
    expect(server.requests[1].body).toEqual({ name: 'evals' });

    const [mlflowRun] = server.runs.values();
    expect(mlflowRun.experiment_id).toBe('1');
    expect(mlflowRun.run_name).toBe(`EleutherAI/pythia-70m ${STAMP}`);
    // results.json's date (seconds) as MLflow's milliseconds.
    expect(mlflowRun.start_time).toBe(1714564800500);
    expect(mlflowRun.status).toBe('FINISHED');
    expect(mlflowRun.end_time).toBe(NOW);
    expect(Object.fromEntries(mlflowRun.params)).toEqual({
      model_name: 'EleutherAI/pythia-70m',
      model_source: 'gguf',
      model: 'gguf',
      model_args: '{"model":"models/tiny.gguf","n_ctx":512}',
      batch_size: '1',
      limit: 'null',
      bootstrap_iters: '1000',
      random_seed: '0',
      numpy_seed: '1234',
      torch_seed: '1234',
      fewshot_seed: '1234',
      'num_fewshot/arc_easy': '0',
      'num_fewshot/gsm8k': '5',
    });
    const at = { timestamp: 1714564800500, step: 0 };
    expect(mlflowRun.metrics).toEqual([
      { key: 'arc_easy/acc', value: 0.75, ...at },
      { key: 'arc_easy/acc_stderr', value: 0.0125, ...at },
      { key: 'arc_easy/acc_ci_low', value: 0.72, ...at },
      { key: 'arc_easy/acc_ci_high', value: 0.78, ...at },
      { key: 'arc_easy/acc_norm', value: 0.7, ...at },
      { key: 'arc_easy/acc_norm_stderr', value: 0.013, ...at },
      { key: 'gsm8k/exact_match/strict-match', value: 0.25, ...at },
      { key: 'gsm8k/exact_match_stderr/strict-match', value: 0.02, ...at },
      // lm-eval's "N/A" stderr is no number: the value alone.
      { key: 'gsm8k/exact_match/flexible-extract', value: 0.3, ...at },
      // No sample line has an error: every task's count is 0 (a run without a latency cap has no timeouts).
      { key: 'arc_easy/errored_samples', value: 0, ...at },
      { key: 'gsm8k/errored_samples', value: 0, ...at },
    ]);
    expect(Object.fromEntries(mlflowRun.tags)).toEqual({
      'assay.version': '0.1.0',
      'assay.results_file': `results_${STAMP}.json`,
      'assay.partial': 'false',
      'assay.task_hash.arc_easy': 'a'.repeat(64),
      'assay.task_hash.gsm8k': 'b'.repeat(64),
      'assay.task_sha256.arc_easy': 'c'.repeat(64),
      'assay.task_sha256.gsm8k': 'd'.repeat(64),
    });
    // The files byte for byte, under their own names: a downloaded artifact folder is a run folder.
    const files = [run.resultsFile, ...Object.values(run.sampleFiles), run.leaderboardFile];
    expect([...mlflowRun.artifacts.keys()]).toEqual(files.map((file) => path.basename(file)));
    for (const file of files)
      expect(mlflowRun.artifacts.get(path.basename(file))).toEqual(readFileSync(file));
    expect(report.url).toBe(`${server.uri}/#/experiments/1/runs/run0001`);
    expect(report.summary).toBe(
      'MLflow run run0001 in experiment "evals": 13 params, 11 metrics, 7 tags in 1 batch, 4 artifacts',
    );
  });

  test('an existing experiment is reused; a results file is accepted as the run; no samples is fine', async () => {
    const run = writeRunFolder(tempDir('assay-mlflow-'), { samples: false });
    await exportTo(run.resultsFile, { experimentName: 'Default', runName: 'baseline' });
    expect(server.violations).toEqual([]);
    expect(server.requests.some((request) => request.path.includes('experiments/create'))).toBe(false);
    const [mlflowRun] = server.runs.values();
    expect(mlflowRun.experiment_id).toBe('0');
    expect(mlflowRun.run_name).toBe('baseline');
    expect([...mlflowRun.artifacts.keys()]).toEqual([`results_${STAMP}.json`, `leaderboard_${STAMP}.json`]);
  });

  test('a large run is split within log-batch limits, in the fewest requests, nothing lost', async () => {
    const run = writeRunFolder(tempDir('assay-mlflow-'), { samples: false });
    const content = JSON.parse(readFileSync(run.resultsFile, 'utf8'));
    const tasks = Array.from({ length: 300 }, (_, index) => `task_${index}`);
    content.results = Object.fromEntries(
      tasks.map((task, index) => [
        task,
        {
          'acc,none': index / 200,
          'acc_stderr,none': 0.01,
          'acc_ci,none': [index / 200 - 0.02, index / 200 + 0.02],
        },
      ]),
    );
    content['n-shot'] = Object.fromEntries(tasks.map((task) => [task, 0]));
    content.task_hashes = Object.fromEntries(tasks.map((task) => [task, 'e'.repeat(64)]));
    content.manifest.tasks = Object.fromEntries(tasks.map((task) => [task, { sha256: 'f'.repeat(64) }]));
    content.configs = Object.fromEntries(tasks.map((task) => [task, { task }]));
    writeFileSync(run.resultsFile, JSON.stringify(content));
    await exportTo(run.outputPath, { artifacts: false });

    expect(server.violations).toEqual([]);
    const batches = server.requests.filter((request) => request.path.endsWith('runs/log-batch'));
    // 311 params (11 settings + 300 n-shot), 603 tags, 1200 metrics: 100 tags per request makes 7 the least.
    expect(batches).toHaveLength(7);
    const [mlflowRun] = server.runs.values();
    expect(mlflowRun.params.size).toBe(311);
    expect(mlflowRun.tags.size).toBe(603);
    expect(mlflowRun.metrics).toHaveLength(1200);
    expect(mlflowRun.metrics.find((metric) => metric.key === 'task_299/acc_ci_high')?.value).toBeCloseTo(
      1.515,
      12,
    );
    expect(mlflowRun.status).toBe('FINISHED');
  });

  test('a deleted experiment, or artifacts stored where REST cannot write, are refused before a run exists', async () => {
    const run = writeRunFolder(tempDir('assay-mlflow-'));
    server.experiments.set('7', {
      experiment_id: '7',
      name: 'old',
      artifact_location: 'mlflow-artifacts:/7',
      lifecycle_stage: 'deleted',
    });
    const deleted = await failure(exportTo(run.outputPath, { experimentName: 'old' }));
    expect(deleted.message).toBe(
      'MLflow experiment "old" is deleted: restore it (mlflow experiments restore) or choose another name',
    );
    server.artifactRoot = 's3://bucket/mlruns';
    const s3 = await failure(exportTo(run.outputPath, { experimentName: 'on-s3' }));
    expect(s3.message).toMatch(
      /^MLflow stores the artifacts of experiment "on-s3" at "s3:\/\/bucket\/mlruns\/1"/,
    );
    expect(s3.message).toContain('`artifacts: false`');
    expect(server.runs.size).toBe(0);
    // Without artifacts the same experiment takes the run.
    await exportTo(run.outputPath, { experimentName: 'on-s3', artifacts: false });
    expect([...server.runs.values()].map((entry) => entry.status)).toEqual(['FINISHED']);
    expect(server.violations).toEqual([]);
  });

  test('a failed upload marks the run FAILED; credentials never appear in the error, even when the server echoes them', async () => {
    const run = writeRunFolder(tempDir('assay-mlflow-'));
    const token = 'mlflow-token-3f9c2a7e';
    server.requireAuthorization = `Bearer ${token}`;
    server.echoAuthorization = true;
    server.failArtifacts = 500;
    const error = await failure(exportTo(run.outputPath, { auth: { token } }));
    expect(error.message).toMatch(
      /^cannot upload results_.*\.json to MLflow run run0001: MLflow answered HTTP 500 to PUT .*storage unavailable \(sent: Bearer \*\*\*\).*\(MLflow run run0001 is marked FAILED\)$/,
    );
    expect(error.message).not.toContain(token);
    expect(error.exitCode).toBe(1);
    expect(server.runs.get('run0001')?.status).toBe('FAILED');
    // Every request carried the token.
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${token}`)).toBe(
      true,
    );

    const wrong = await failure(exportTo(run.outputPath, { auth: { token: 'wrong-token-99' } }));
    expect(wrong.message).toContain('HTTP 401');
    expect(wrong.message).toContain('set MLFLOW_TRACKING_TOKEN');
    expect(wrong.message).not.toContain('wrong-token-99');
  });

  test('a long error answer is masked before it is cut: no part of the token is printed', async () => {
    const run = writeRunFolder(tempDir('assay-mlflow-'), { samples: false });
    const token = 'q7Zt-9b1e55aa02f4c7d3e8a16b2c0f9d4e7a';
    server.requireAuthorization = `Bearer ${token}`;
    server.echoAuthorization = true;
    server.failArtifacts = 500;
    // The token starts 268 characters into the answer, under the 300 that are quoted.
    server.errorDetail = `; ${'the artifact store refused the write. '.repeat(5).trim()}`;
    const quoted = async () => {
      const error = await failure(exportTo(run.outputPath, { auth: { token } }));
      for (let length = 4; length <= token.length; length++)
        expect(error.message).not.toContain(token.slice(0, length));
      return /answered HTTP 500 to PUT \S+: (.*) \(MLflow run run\d+ is marked FAILED\)$/.exec(
        error.message,
      )?.[1];
    };
    // The server's JSON answer, masked, is 273 characters: quoted whole.
    const answer = () =>
      JSON.stringify({
        error_code: 'INTERNAL_ERROR',
        message: `storage unavailable${server.errorDetail} (sent: Bearer ***)`,
      });
    expect(answer()).toHaveLength(273);
    expect(await quoted()).toBe(answer());
    // A longer one is cut at 300 characters, after masking.
    server.errorDetail += ' '.repeat(3) + 'x'.repeat(40);
    expect(await quoted()).toBe(`${answer().replace(/\s+/g, ' ').slice(0, 300)}…`);
  });

  test('Basic credentials, from the environment or the URI, are redacted in every form', async () => {
    const run = writeRunFolder(tempDir('assay-mlflow-'), { samples: false });
    const basic = Buffer.from('ana:pa55-word-x').toString('base64');
    server.requireAuthorization = `Basic ${basic}`;
    server.echoAuthorization = true;
    const fromEnv = mlflowSettingsFromEnv({
      MLFLOW_TRACKING_URI: server.uri,
      MLFLOW_TRACKING_USERNAME: 'ana',
      MLFLOW_TRACKING_PASSWORD: 'pa55-word-x',
      MLFLOW_EXPERIMENT_NAME: 'team',
    });
    expect(fromEnv.experimentName).toBe('team');
    await exportRun(run.outputPath, { to: 'mlflow', mlflow: fromEnv });
    expect(server.violations).toEqual([]);
    expect(server.runs.size).toBe(1);

    const inUri = server.uri.replace('http://', 'http://ana:pa55-word-x@');
    server.failArtifacts = 503;
    const error = await failure(exportTo(run.outputPath, { trackingUri: inUri }));
    expect(error.message).toContain(`Basic ***`);
    expect(error.message).not.toContain('pa55-word-x');
    expect(error.message).not.toContain(basic);
  });

  test('a tracking URI that is not an http(s) server is refused with the variable named', async () => {
    const run = writeRunFolder(tempDir('assay-mlflow-'), { samples: false });
    const error = await failure(exportTo(run.outputPath, { trackingUri: 'file:///tmp/mlruns' }));
    expect(error.message).toBe(
      'MLFLOW_TRACKING_URI must be the http(s) URL of a tracking server (assay talks to MLflow through its REST API), got "file:///tmp/mlruns"',
    );
    expect(() => mlflowSettingsFromEnv({})).toThrow(/^MLFLOW_TRACKING_URI is not set/);
    expect(server.requests).toEqual([]);
  });
});
