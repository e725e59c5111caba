/**
 * Issue 15 through the real CLI: failed requests are never hidden (results, table, leaderboard, console,
 * gate and compare), a dead server stops the run with its cause, and Ctrl-C says what it interrupted.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type ErrorsBlock, readLeaderboard, readResultsFile, readSamples } from 'assay/results';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../src/run/evaluate.js';
import { type Faults, startTestServer, type TestServer } from './fakes/openai-server.js';
import { writeChoiceTask } from './support/choice-task.js';
import { startCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, tempDir } from './support/helpers.js';

let taskFile: string;
beforeAll(() => {
  // 20 four-way multiple-choice docs: 80 loglikelihood requests.
  taskFile = writeChoiceTask(
    tempDir('assay-reliability-task-'),
    'rel_mc',
    Array.from({ length: 20 }, (_, i) => ({
      question: `Item ${i}: which word follows ${i % 7} and ${i % 5}?`,
      choices: ['red', 'green', 'blue', `word ${i}`],
      answer: i % 4,
    })),
  );
});

const servers: TestServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()?.close();
});
async function server(faults: Faults = {}): Promise<TestServer> {
  const started = await startTestServer(faults);
  servers.push(started);
  return started;
}

// Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
const modelArgs = (url: string, concurrency = 4) => ({
  tokenized_requests: false,
  model: 'test',
  base_url: url,
  num_concurrent: concurrency,
  max_retries: 2,
  retry_backoff: 0.001,
});
/** The same, as the command line takes it. */
const modelArgsText = (url: string, concurrency = 4) =>
  `model=test,base_url=${url},num_concurrent=${concurrency},max_retries=2,retry_backoff=0.001,tokenized_requests=false`;

describe('failed requests are never hidden', () => {
  it('results, table, leaderboard and console mark the errored docs; gate and compare refuse the run', async () => {
    const clean = await server();
    const baseline = tempDir();
    await evaluate({
      model: 'local-completions',
      modelArgs: modelArgs(clean.completionsUrl),
      tasks: [taskFile],
      outputPath: baseline,
      logSamples: true,
    });
    // Doc 3's requests keep failing with HTTP 500; doc 7's come back with a positive log-probability.
    const faulty = await server({
      failBodiesContaining: { text: 'Item 3:', message: 'replica overloaded' },
      corrupt: { kind: 'positive-logprob', onlyBodiesContaining: 'Item 7:' },
    });
    const out = tempDir();
    const run = await startCli([
      'run',
      '--model',
      'local-completions',
      '--model_args',
      modelArgsText(faulty.completionsUrl),
      '--tasks',
      taskFile,
      '--output_path',
      out,
      '--log_samples',
    ]).done;
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain('internal error');

    // The metric covers the 18 answered docs: the clean run's per-doc scores without docs 3 and 7.
    const cleanSamples = readSamples(findOne(path.join(baseline, 'test'), /^samples_rel_mc_/));
    const answered = cleanSamples.filter((sample) => sample.doc_id !== 3 && sample.doc_id !== 7);
    const expectedAcc = answered.reduce((sum, sample) => sum + (sample.acc as number), 0) / answered.length;
    const dir = path.join(out, 'test');
    const results = readResultsFile(findOne(dir, /^results_.*\.json$/));
    expect(results.results.rel_mc['acc,none']).toBeCloseTo(expectedAcc, 12);
    expect(results.results.rel_mc).toMatchObject({
      partial: true,
      errors: 2,
      answered: 18,
      note: 'metrics over the 18 answered docs of 20; 2 errored samples count in no metric',
    });
    expect(results.partial).toBe(true);
    expect(results.errors).toMatchObject({
      samples: 2,
      by_task: { rel_mc: 2 },
      by_cause: { 'HTTP 500': 1, 'bad answer': 1 },
    });
    // The first error's record is assay's, typed as the contract writes it.
    const first = (results.errors as ErrorsBlock).first;
    expect(first?.task).toBe('rel_mc');
    expect(first?.doc_id).toBe(3);
    expect(first?.message).toMatch(/^loglikelihood request #\d+ "Item 3: .*": HTTP 500: replica overloaded$/);
    const lied = readSamples(findOne(dir, /^samples_rel_mc_/)).find((sample) => sample.doc_id === 7);
    expect(lied?.error).toMatch(
      /^loglikelihood request #\d+ "Item 7: .*": prompt_logprobs entry \d+ \(token \d+\) has log-probability 3\.5, above 0/,
    );

    const leaderboard = readLeaderboard(findOne(dir, /^leaderboard_.*\.json$/));
    expect(leaderboard).toMatchObject({ partial: true, errors: 2 });
    expect(leaderboard.tasks.rel_mc).toMatchObject({ partial: true, errors: 2, n: 18 });

    expect(run.stdout).toMatch(/\|rel_mc \(partial: 2 errored, 18 of 20 docs\)\|/);
    expect(run.stdout).toContain('WARNING: partial run (2 errored samples)');
    expect(run.stderr).toContain('assay: 2 samples failed and count in no metric (rel_mc: 2); by cause: ');
    expect(run.stderr).toContain('HTTP 500: 1');
    expect(run.stderr).toContain('bad answer: 1');
    expect(run.stderr).toMatch(
      /assay: first error \(task rel_mc, doc 3\): loglikelihood request #\d+ "Item 3: .*": HTTP 500: replica overloaded\n/,
    );
    expect(run.stderr).toContain('assay: every error is in the sample logs: ');

    // gate and compare through the CLI's main() in this process (test/cli-in-process.ts): what they read
    // from the run is under test here; their own child-process runs are in compare.e2e.test.ts.
    const gate = ['gate', '--baseline', baseline, '--current', out, '--max_drop', '0.5'];
    const refused = await runCliInProcess(gate);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /the current run has 2 errored samples \(rel_mc: 2\): .* pass --allow_errors/,
    );
    const allowed = await runCliInProcess([...gate, '--allow_errors']);
    expect(allowed.stderr).toContain('--allow_errors: comparing the docs answered in both runs');
    expect(allowed.stdout).toMatch(/^PASS +rel_mc \(acc, none\), n = 18: /m);
    expect(allowed.status).toBe(0);
    const compare = await runCliInProcess(['compare', out, baseline]);
    expect(compare.status).toBe(2);
    expect(compare.stderr).toContain('the first run has 2 errored samples (rel_mc: 2)');
  }, 60_000);
});

describe('a run that cannot succeed stops with its cause; Ctrl-C says what it interrupted', () => {
  it('connection refused on every attempt of the first request: exit 1 at once, the cause on the console', async () => {
    const gone = await server();
    const url = gone.completionsUrl;
    await gone.close();
    servers.pop();
    const started = performance.now();
    const run = await startCli([
      'run',
      '--model',
      'local-completions',
      '--model_args',
      modelArgsText(url),
      '--tasks',
      taskFile,
    ]).done;
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /assay: error: local-completions at .*: could not connect to .*: all 2 attempts of loglikelihood request #\d+ .* failed \(connect ECONNREFUSED .*\) and no request has been answered/,
    );
    expect(run.stderr).not.toContain('see the sample log');
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('SIGINT names the phase and progress and says no outputs were written', async () => {
    const slow = await server({ latencyMs: 40 });
    const out = tempDir();
    const cli = startCli([
      'run',
      '--model',
      'local-completions',
      '--model_args',
      modelArgsText(slow.completionsUrl, 1),
      '--tasks',
      taskFile,
      '--output_path',
      out,
      '--log_samples',
    ]);
    while (slow.stats.answered.size < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.status).toBe(130);
    expect(run.stderr).toMatch(
      new RegExp(
        `assay: interrupted \\(SIGINT\\) while requests: loglikelihood requests \\d+ of 80 answered; no outputs were written to ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`,
      ),
    );
    expect(existsSync(path.join(out, 'test')) ? readdirSync(path.join(out, 'test')) : []).toEqual([]);
  }, 30_000);
});
