/**
 * A partial run leaves assay marked as partial. The run is real (simpleEvaluate over a JSONL task, with a
 * backend scripted per prompt): `limit` 4 of its 5 docs, one request failing (an errored sample) and
 * one over the latency cap (a timed-out doc). Exported to the loopback MLflow server and Hub, the numbers
 * travel with tags, counts, a card section and a commit description that say so, and `assay export`
 * warns on the console. The counts expected are the ones the script causes, not read from the run.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { exportRun } from '../src/export/export-run.js';
import { hubSettingsFromArgs } from '../src/export/hub-settings.js';
import { simpleEvaluate } from '../src/run/evaluate.js';
import { ClockedBackend } from './fakes/clocked-backend.js';
import { type FakeHub, startFakeHub } from './fakes/hub.js';
import { type FakeHubWrites, fakeHubWrites } from './fakes/hub-writes.js';
import { type FakeMlflow, startFakeMlflow } from './fakes/mlflow.js';
import { writeRunFolder } from './fixtures/export/run-folder.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { tempDir } from './support/helpers.js';

const HF_TOKEN = 'hf_partialRunToken8842';
let mlflow: FakeMlflow;
let hub: FakeHub;
let writes: FakeHubWrites;

beforeEach(async () => {
  mlflow = await startFakeMlflow();
  writes = fakeHubWrites({ [HF_TOKEN]: 'ana' }, ['acme']);
  hub = await startFakeHub({}, writes);
});
afterEach(async () => {
  await mlflow.close();
  await hub.close();
});

/** A real run: docs 0–3 of 5 (limit 4); doc 1 errors, doc 2 times out, docs 0 and 3 are answered. */
async function partialRun(): Promise<string> {
  const directory = tempDir('assay-partial-export-');
  const task = path.join(directory, 'echo.jsonl');
  writeFileSync(
    task,
    [
      '{"id": 0, "prompt": "say one", "targets": ["one"], "metric": "exact_match"}',
      '{"id": 1, "prompt": "say fail", "targets": ["fail"], "metric": "exact_match"}',
      '{"id": 2, "prompt": "say slow", "targets": ["slow"], "metric": "exact_match"}',
      '{"id": 3, "prompt": "say four", "targets": ["4"], "metric": "exact_match"}',
      '{"id": 4, "prompt": "say five", "targets": ["five"], "metric": "exact_match"}',
      '',
    ].join('\n'),
  );
  const outputPath = path.join(directory, 'out');
  await simpleEvaluate({
    model: new ClockedBackend({ name: 'scripted', concurrency: 2, slowMs: 60_000, failing: true }),
    tasks: [task],
    limit: 4,
    // Far above what an answer at once takes on a loaded machine, far below the slow doc's 60 s.
    maxLatencyS: 2,
    outputPath,
    logSamples: true,
  });
  return outputPath;
}

const REASONS = [
  'limit=4 (echo: 4 of 5 docs)',
  '1 errored sample in no metric (echo: 1)',
  '1 doc timed out at max_latency_s=2, in no metric (echo: 1)',
];

function recorder() {
  const warnings: string[] = [];
  return { warnings, logger: { info: () => undefined, warn: (message: string) => warnings.push(message) } };
}

describe('exporting a partial run says that it is partial', () => {
  let out: string;
  beforeAll(async () => {
    out = await partialRun();
  });

  test('MLflow: tags, per-task errored and timed-out counts, a warning; the Hub: card and commit', async () => {
    const toMlflow = recorder();
    await exportRun(
      out,
      { to: 'mlflow', mlflow: { trackingUri: mlflow.uri, experimentName: 'evals', artifacts: false } },
      { logger: toMlflow.logger },
    );
    expect(mlflow.violations).toEqual([]);
    const [run] = mlflow.runs.values();
    const tags = Object.fromEntries(run.tags);
    expect(tags['assay.partial']).toBe('true');
    expect(tags['assay.partial_reason']).toBe(REASONS.join('; '));
    const metrics = Object.fromEntries(run.metrics.map((metric) => [metric.key, metric.value]));
    // Over docs 0 and 3, answered: "one" is right, "four" is not the target "4".
    expect(metrics['echo/exact_match']).toBe(0.5);
    expect(metrics['echo/errored_samples']).toBe(1);
    expect(metrics['echo/timed_out_samples']).toBe(1);
    expect(toMlflow.warnings).toContain(
      `the run is partial: ${REASONS.join('; ')}. Its numbers cover only part of its docs; the export says so (MLflow tags assay.partial and assay.partial_reason, and per-task errored_samples and timed_out_samples metrics)`,
    );

    const toHub = recorder();
    await exportRun(
      out,
      {
        to: 'hub',
        hub: hubSettingsFromArgs(
          { hub_results_org: 'acme', push_results_to_hub: true },
          { HF_TOKEN, HF_ENDPOINT: hub.endpoint },
          '--hf_hub_log_args',
        ),
      },
      { logger: toHub.logger },
    );
    expect(writes.violations).toEqual([]);
    const repo = writes.repos.get('acme/lm-eval-results-private');
    const card = Buffer.from(repo?.files.get('README.md') ?? new Uint8Array()).toString('utf8');
    expect(card).toContain(
      [
        '## Partial run',
        '',
        'The latest results cover only part of their docs, so they are not comparable with a full run:',
        '',
        ...REASONS.map((reason) => `- ${reason}`),
        '',
        '## Latest results',
      ].join('\n'),
    );
    expect(repo?.commits[0].description).toBe(`Partial run: ${REASONS.join('; ')}`);
    expect(
      toHub.warnings.some((warning) => warning.startsWith(`the run is partial: ${REASONS.join('; ')}.`)),
    ).toBe(true);
  });

  test('assay export warns on the console through the CLI, and exits 0 (the export itself succeeded)', async () => {
    const previous = process.env.MLFLOW_TRACKING_URI;
    process.env.MLFLOW_TRACKING_URI = mlflow.uri;
    try {
      const result = await runCliInProcess(['export', out, '--to', 'mlflow', '--no_artifacts']);
      expect(result.status).toBe(0);
      expect(result.stderr).toContain(`assay: warning: the run is partial: ${REASONS.join('; ')}.`);
    } finally {
      if (previous === undefined) delete process.env.MLFLOW_TRACKING_URI;
      else process.env.MLFLOW_TRACKING_URI = previous;
    }
  });

  test("lm-eval's own results file with a limit is partial too", async () => {
    const folder = writeRunFolder(tempDir('assay-partial-export-'), { samples: false });
    const content = folder.results as {
      config: Record<string, unknown>;
      'n-samples': Record<string, { original: number; effective: number }>;
    };
    content.config.limit = 2;
    content['n-samples'].arc_easy = { original: 4, effective: 2 };
    writeFileSync(folder.resultsFile, JSON.stringify(content));
    await exportRun(folder.resultsFile, {
      to: 'mlflow',
      mlflow: { trackingUri: mlflow.uri, experimentName: 'evals', artifacts: false },
    });
    const [limited] = mlflow.runs.values();
    expect(Object.fromEntries(limited.tags)).toMatchObject({
      'assay.partial': 'true',
      'assay.partial_reason': 'limit=2 (arc_easy: 2 of 4 docs)',
    });
    // No sample logs and no errors record: whether samples errored is unknown, so no count is invented.
    expect(limited.metrics.some((metric) => metric.key.endsWith('/errored_samples'))).toBe(false);
  });
});
