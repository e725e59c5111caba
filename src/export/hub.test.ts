/**
 * Hub export (lm-eval's --hf_hub_log_args) against the project's loopback Hub with its write endpoints
 * (test/fakes/hub-writes.ts), which checks every request. The layout expected is lm-eval's
 * (loggers/evaluation_tracker.py); file contents are compared byte for byte with the run folder.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type FakeHub, startFakeHub } from '../../test/fakes/hub.js';
import { type FakeHubWrites, fakeHubWrites } from '../../test/fakes/hub-writes.js';
import { STAMP, writeRunFolder } from '../../test/fixtures/export/run-folder.js';
import { tempDir } from '../../test/support/helpers.js';
import { AssayError } from '../errors.js';
import { exportRun } from './export-run.js';
import { HUB_REQUEST_TIMEOUT_MS } from './hub-fetch.js';
import { type HubSettings, hubSettingsFromArgs } from './hub-settings.js';

const TOKEN = 'hf_writeToken0123456789';
let hub: FakeHub;
let writes: FakeHubWrites;

beforeEach(async () => {
  writes = fakeHubWrites({ [TOKEN]: 'ana' }, ['acme']);
  hub = await startFakeHub({}, writes);
});
afterEach(async () => {
  await hub.close();
});

function env(token = TOKEN) {
  return { HF_TOKEN: token, HF_ENDPOINT: hub.endpoint };
}

async function push(location: string, args: Record<string, unknown>, token = TOKEN) {
  return exportRun(location, { to: 'hub', hub: hubSettingsFromArgs(args, env(token), '--hf_hub_log_args') });
}

function text(repo: string, file: string): string {
  const content = writes.repos.get(repo)?.files.get(file);
  if (!content) throw new Error(`${repo} has no ${file}`);
  return Buffer.from(content).toString('utf8');
}

function card(repo: string): Record<string, unknown> {
  const readme = text(repo, 'README.md');
  const match = /^---\n([\s\S]*?)\n---\n/.exec(readme);
  if (!match) throw new Error('no YAML header');
  return parseYaml(match[1]);
}

async function failure(run: () => Promise<unknown> | unknown): Promise<AssayError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AssayError);
    return error as AssayError;
  }
  throw new Error('expected a failure');
}

describe('assay export --to hub (lm-eval --hf_hub_log_args)', () => {
  test("results and samples in lm-eval's layout, a private repo by default, one commit, a card with configs", async () => {
    const run = writeRunFolder(tempDir('assay-hub-'));
    const report = await push(run.outputPath, {
      hub_results_org: 'acme',
      details_repo_name: 'evals',
      push_results_to_hub: true,
      push_samples_to_hub: true,
    });
    expect(writes.violations).toEqual([]);
    // results_repo_name defaults to details_repo_name; public_repo=False adds -private.
    expect([...writes.repos.keys()]).toEqual(['acme/evals-private']);
    const repo = writes.repos.get('acme/evals-private');
    expect(repo?.private).toBe(true);
    expect([...(repo?.files.keys() ?? [])].sort()).toEqual(
      [
        // Aggregated results under the model name as given (lm-eval's results repo layout)…
        `EleutherAI/pythia-70m/results_${STAMP}.json`,
        // …and the run folder under the sanitized name (lm-eval's details repo layout).
        `EleutherAI__pythia-70m/results_${STAMP}.json`,
        `EleutherAI__pythia-70m/samples_arc_easy_${STAMP}.jsonl`,
        `EleutherAI__pythia-70m/samples_gsm8k_${STAMP}.jsonl`,
        `EleutherAI__pythia-70m/leaderboard_${STAMP}.json`,
        'README.md',
      ].sort(),
    );
    expect(text('acme/evals-private', `EleutherAI/pythia-70m/results_${STAMP}.json`)).toBe(
      readFileSync(run.resultsFile, 'utf8'),
    );
    expect(text('acme/evals-private', `EleutherAI__pythia-70m/samples_gsm8k_${STAMP}.jsonl`)).toBe(
      readFileSync(run.sampleFiles.gsm8k, 'utf8'),
    );
    expect(repo?.commits).toHaveLength(1);
    expect(repo?.commits[0].title).toBe(
      'Adding aggregated results for EleutherAI/pythia-70m; Adding samples results for arc_easy, gsm8k to EleutherAI/pythia-70m',
    );
    const split = '2024_05_01T12_00_00.123456';
    expect(card('acme/evals-private')).toEqual({
      pretty_name: 'Evaluation run of EleutherAI/pythia-70m',
      configs: [
        {
          config_name: 'EleutherAI__pythia-70m__arc_easy',
          data_files: [
            { split, path: [`EleutherAI__pythia-70m/samples_arc_easy_${STAMP}.jsonl`] },
            { split: 'latest', path: [`EleutherAI__pythia-70m/samples_arc_easy_${STAMP}.jsonl`] },
          ],
        },
        {
          config_name: 'EleutherAI__pythia-70m__gsm8k',
          data_files: [
            { split, path: [`EleutherAI__pythia-70m/samples_gsm8k_${STAMP}.jsonl`] },
            { split: 'latest', path: [`EleutherAI__pythia-70m/samples_gsm8k_${STAMP}.jsonl`] },
          ],
        },
        {
          // The same results file in both folders is listed once.
          config_name: 'EleutherAI__pythia-70m__results',
          data_files: [
            { split, path: [`EleutherAI/pythia-70m/results_${STAMP}.json`] },
            { split: 'latest', path: [`EleutherAI/pythia-70m/results_${STAMP}.json`] },
          ],
        },
      ],
    });
    expect(text('acme/evals-private', 'README.md')).toContain('"acc,none": 0.75');
    // Every API call carried the token; only the presigned LFS storage URL goes without.
    const api = hub.requests.filter((request) => !request.url.startsWith('/lfs-storage/'));
    expect(api.length).toBeGreaterThan(3);
    expect(api.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(report.url).toBe(`${hub.endpoint}/datasets/acme/evals-private`);
    expect(report.files).toHaveLength(6);
  });

  test('separate public repos, the org from whoami, large sample logs through LFS, a second run updates the card', async () => {
    writes.lfsThreshold = 4000;
    const args = {
      results_repo_name: 'scores',
      push_results_to_hub: 'True',
      push_samples_to_hub: 'True',
      public_repo: true,
    };
    const first = writeRunFolder(tempDir('assay-hub-'), { sampleBytes: 6000 });
    await push(first.folder, args);
    expect(writes.violations).toEqual([]);
    expect([...writes.repos.keys()].sort()).toEqual(['ana/lm-eval-results', 'ana/scores']);
    expect(writes.repos.get('ana/scores')?.private).toBe(false);
    const details = writes.repos.get('ana/lm-eval-results');
    expect(details?.commits[0].lfs.sort()).toEqual([
      `EleutherAI__pythia-70m/samples_arc_easy_${STAMP}.jsonl`,
      `EleutherAI__pythia-70m/samples_gsm8k_${STAMP}.jsonl`,
    ]);
    expect(text('ana/lm-eval-results', `EleutherAI__pythia-70m/samples_arc_easy_${STAMP}.jsonl`)).toBe(
      readFileSync(first.sampleFiles.arc_easy, 'utf8'),
    );
    expect(writes.repos.get('ana/scores')?.commits[0].lfs).toEqual([]);
    expect([...(writes.repos.get('ana/scores')?.files.keys() ?? [])]).toEqual([
      `EleutherAI/pythia-70m/results_${STAMP}.json`,
      'README.md',
    ]);

    // A later run into the existing repos (409 on create): the card's latest split moves to it.
    const later = '2024-06-02T08-30-00.000001';
    const second = writeRunFolder(tempDir('assay-hub-'), { stamp: later });
    await push(second.resultsFile, args);
    expect(writes.violations).toEqual([]);
    expect(details?.commits).toHaveLength(2);
    const configs = card('ana/lm-eval-results').configs as Array<{
      config_name: string;
      data_files: unknown;
    }>;
    expect(
      configs.find((config) => config.config_name === 'EleutherAI__pythia-70m__gsm8k')?.data_files,
    ).toEqual([
      { split: '2024_06_02T08_30_00.000001', path: [`EleutherAI__pythia-70m/samples_gsm8k_${later}.jsonl`] },
      { split: 'latest', path: [`EleutherAI__pythia-70m/samples_gsm8k_${later}.jsonl`] },
    ]);
    expect(details?.files.has(`EleutherAI__pythia-70m/samples_gsm8k_${STAMP}.jsonl`)).toBe(true);
  });

  test('a model given by a path lands in its sanitized folder in both repos (no ".." in repo paths)', async () => {
    const run = writeRunFolder(tempDir('assay-hub-'), {
      model: '../shared/models/stories260K.gguf',
      sanitized: 'shared__models__stories260K.gguf',
      samples: false,
    });
    await push(run.outputPath, { hub_results_org: 'acme', push_results_to_hub: true });
    expect(writes.violations).toEqual([]);
    expect([...(writes.repos.get('acme/lm-eval-results-private')?.files.keys() ?? [])]).toEqual([
      `shared__models__stories260K.gguf/results_${STAMP}.json`,
      'README.md',
    ]);
  });

  test('bad arguments are refused before any request, naming the key', async () => {
    const run = writeRunFolder(tempDir('assay-hub-'), { samples: false });
    const cases: Array<[Record<string, unknown>, Record<string, string>, string]> = [
      [
        { push_result_to_hub: true },
        env(),
        '--hf_hub_log_args: unknown key "push_result_to_hub"; did you mean "push_results_to_hub"?',
      ],
      [
        { token: 'x', push_results_to_hub: true },
        env(),
        '--hf_hub_log_args: pass the token in HF_TOKEN, not on the command line',
      ],
      [
        { hub_results_org: 'acme' },
        env(),
        '--hf_hub_log_args: nothing to push: set push_results_to_hub=True and/or push_samples_to_hub=True',
      ],
      [{ push_results_to_hub: 'yes' }, env(), '--hf_hub_log_args: push_results_to_hub:'],
      [
        { push_results_to_hub: true, details_repo_name: 'a/b' },
        env(),
        '--hf_hub_log_args: details_repo_name:',
      ],
      [
        { push_results_to_hub: true },
        { HF_ENDPOINT: hub.endpoint },
        '--hf_hub_log_args: HF_TOKEN is not set',
      ],
    ];
    for (const [args, environment, message] of cases) {
      const error = await failure(() => hubSettingsFromArgs(args, environment, '--hf_hub_log_args'));
      expect(error.message.startsWith(message), error.message).toBe(true);
      expect(error.exitCode).toBe(2);
    }
    const noSamples = await failure(() => push(run.outputPath, { push_samples_to_hub: true }));
    expect(noSamples.message).toMatch(
      /^push_samples_to_hub=True needs the run's sample logs, and there are none beside .*\(run with `logSamples`\)$/,
    );
    expect(hub.requests).toEqual([]);
  });

  test('the token never appears in an error, even when the Hub echoes it', async () => {
    const run = writeRunFolder(tempDir('assay-hub-'));
    writes.echoAuthorization = true;
    writes.failCommit = 500;
    const error = await failure(() =>
      push(run.outputPath, { hub_results_org: 'acme', push_samples_to_hub: true }),
    );
    expect(error.message).toMatch(
      /^cannot commit to dataset acme\/lm-eval-results-private on http:\/\/127\.0\.0\.1:\d+: HTTP 500: commit refused \(sent Bearer \*\*\*\)/,
    );
    expect(error.message).not.toContain(TOKEN);
    expect(error.exitCode).toBe(1);
    // A failed commit changes nothing.
    expect(writes.repos.get('acme/lm-eval-results-private')?.files.size).toBe(0);

    const refused = await failure(() =>
      push(run.outputPath, { push_results_to_hub: true }, 'hf_notAKnownToken42'),
    );
    expect(refused.message).toContain('HTTP 401');
    expect(refused.message).toContain('HF_TOKEN is a token with write access');
    expect(refused.message).not.toContain('hf_notAKnownToken42');

    // A long answer is masked, then cut: the echo 250 characters in is masked, the rest left out.
    writes.errorDetail = `; ${'the storage backend is busy. '.repeat(8)}`;
    writes.failCommit = 500;
    const long = await failure(() =>
      push(run.outputPath, { hub_results_org: 'acme', push_samples_to_hub: true }),
    );
    const answer = /: HTTP 500: (.*)$/.exec(long.message)?.[1];
    // The Hub client's message is the answer's `error`, then its URL.
    const message = `commit refused${writes.errorDetail} (sent Bearer ***). URL: ${hub.endpoint}/api/datasets/acme/lm-eval-results-private/commit/main`;
    expect(answer).toBe(`${message.replace(/\s+/g, ' ').slice(0, 300)}…`);
    expect(long.message).not.toContain(TOKEN.slice(0, 6));
  });

  test('a Hub that accepts the connection and never answers (or stops mid-answer) fails within the limit, naming the request', async () => {
    const run = writeRunFolder(tempDir('assay-hub-'), { samples: false });
    // Accepts every connection and reads what is sent; answers nothing, or only the headers.
    const sockets = new Set<net.Socket>();
    let headersOnly = false;
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('data', () => {
        if (headersOnly)
          socket.write(
            'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"na',
          );
      });
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    const settings = (args: Record<string, unknown>): HubSettings => ({
      ...hubSettingsFromArgs(args, { HF_TOKEN: TOKEN, HF_ENDPOINT: endpoint }, '--hf_hub_log_args'),
      timeoutMs: 300,
    });
    try {
      // The default is bounded.
      const defaults = hubSettingsFromArgs({ push_results_to_hub: true }, env(), '--hf_hub_log_args');
      expect(defaults.timeoutMs).toBeUndefined();
      expect(HUB_REQUEST_TIMEOUT_MS).toBe(60_000);

      let started = performance.now();
      const created = await failure(() =>
        exportRun(run.outputPath, {
          to: 'hub',
          hub: settings({ hub_results_org: 'acme', push_results_to_hub: true }),
        }),
      );
      expect(performance.now() - started).toBeLessThan(5000);
      expect(created.message).toBe(
        `cannot create dataset acme/lm-eval-results-private on ${endpoint}: no complete answer to POST ${endpoint}/api/repos/create within 0.3 s (is the Hub up, and reachable from here?)`,
      );
      expect(created.exitCode).toBe(1);

      // Headers, then a body that never ends: whoami (no org given) is bounded as a whole.
      headersOnly = true;
      started = performance.now();
      const whoami = await failure(() =>
        exportRun(run.outputPath, { to: 'hub', hub: settings({ push_results_to_hub: true }) }),
      );
      expect(performance.now() - started).toBeLessThan(5000);
      expect(whoami.message).toBe(
        `cannot find the token owner (whoami) for hub_results_org on ${endpoint}: no complete answer to GET ${endpoint}/api/whoami-v2 within 0.3 s (is the Hub up, and reachable from here?)`,
      );
      expect(whoami.message).not.toContain(TOKEN);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
