import path from 'node:path';
import {
  type ReadResults,
  type ReadSampleLine,
  type ResultsFile,
  readResultsFile,
  readSamples,
} from 'assay/results';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AssayError, simpleEvaluate } from '../src/index.js';
import { createHttpBackend } from '../src/models/http/create.js';
import { startTestServer, type TestServer } from './fakes/openai-server.js';
import { writeChoiceTask } from './support/choice-task.js';
import { startCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, repoRoot, tempDir } from './support/helpers.js';

/** The usage block served backends add to request_stats, as the contract writes it. */
type Usage = NonNullable<ResultsFile['request_stats']['usage']>;

let taskFile: string;
beforeAll(() => {
  // 60 four-way multiple-choice docs: 240 loglikelihood requests.
  taskFile = writeChoiceTask(
    tempDir('assay-http-task-'),
    'http_mc',
    Array.from({ length: 60 }, (_, i) => ({
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
async function server(faults: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const started = await startTestServer(faults);
  servers.push(started);
  return started;
}

function runArgs(url: string, out: string, modelArgs = '', extra: string[] = []): string[] {
  return [
    'run',
    '--model',
    'local-completions',
    '--model_args',
    // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
    `model=test,base_url=${url},num_concurrent=4,tokenized_requests=false${modelArgs}`,
    '--tasks',
    taskFile,
    'examples/tasks/arithmetic.jsonl',
    '--output_path',
    out,
    '--log_samples',
    ...extra,
  ];
}

/** Everything but timing fields (date, durations, request_stats) must match between two runs. */
function comparable(out: string): { results: Partial<ReadResults>; samples: ReadSampleLine[][] } {
  const dir = path.join(out, 'test');
  const results = readResultsFile(findOne(dir, /^results_.*\.json$/));
  const samples = ['http_mc', 'arithmetic'].map((task) =>
    readSamples(findOne(dir, new RegExp(`^samples_${task}_.*\\.jsonl$`))),
  );
  return {
    results: {
      results: results.results,
      'n-samples': results['n-samples'],
      task_hashes: results.task_hashes,
      configs: results.configs,
    },
    samples,
  };
}

/**
 * The same run in process, through the library: `sleep`, when given, replaces the HTTP client's timers, so
 * that every wait it asks for (backoff, Retry-After) is a value the test can check instead of real time.
 */
async function evaluateOn(
  url: string,
  modelArgs: Record<string, unknown> = {},
  sleep?: (ms: number) => Promise<void>,
): Promise<string> {
  const model = createHttpBackend(
    'local-completions',
    // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
    { tokenized_requests: false, model: 'test', base_url: url, num_concurrent: 4, ...modelArgs },
    undefined,
    { sleep },
  );
  const out = tempDir();
  try {
    await simpleEvaluate({
      model,
      modelName: 'test',
      tasks: [taskFile, path.join(repoRoot, 'examples/tasks/arithmetic.jsonl')],
      outputPath: out,
      logSamples: true,
    });
  } finally {
    await model.close?.();
  }
  return out;
}

/**
 * A clean run's results: the reference every faulty or interrupted run must match. The run is
 * deterministic (the same tasks against the same fixture server), so it is made once, by the first test
 * that asks, and its results are read once.
 */
let clean: Promise<ReturnType<typeof comparable>> | undefined;
function reference(): Promise<ReturnType<typeof comparable>> {
  clean ??= server().then(async (started) => comparable(await evaluateOn(started.completionsUrl)));
  return clean;
}

describe('assay run --model local-completions, end to end on loopback', () => {
  it('faults (20% 5xx, 5% resets, bursts of 429 with Retry-After) leave the results identical to a clean run', async () => {
    const expected = await reference();
    const faulty = await server({
      fail5xxRate: 0.2,
      resetRate: 0.05,
      burst429: { every: 120, length: 10, retryAfter: 1 },
    });
    const waits: number[] = [];
    const out = await evaluateOn(
      faulty.completionsUrl,
      { max_retries: 12, retry_backoff: 0.01 },
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(comparable(out)).toEqual(expected);
    // The faults happened: more HTTP requests than the 280 answers needed.
    expect(faulty.stats.received).toBeGreaterThan(300);
    const results = readResultsFile(findOne(path.join(out, 'test'), /^results_.*\.json$/));
    const usage = results.request_stats?.usage as Usage;
    expect(usage).toMatchObject({
      requests: 280,
      failedRequests: 0,
      cachedRequests: 0,
    });
    expect(usage.retries).toBeGreaterThan(20);
    expect(usage.latencyP95Ms).toBeGreaterThanOrEqual(usage.latencyP50Ms as number);
    // Every request was a completions request, so the server answered 429 to requests number n with
    // n % 120 < 10; each such answer (Retry-After: 1) made the client wait exactly 1000 ms before its
    // next attempt. Other waits (5xx backoff at retry_backoff=0.01, the pause left) are below that.
    const modelRequests = [...faulty.stats.receivedBodies.values()].reduce((a, b) => a + b, 0);
    expect(modelRequests).toBe(faulty.stats.received);
    const answered429 = Array.from({ length: faulty.stats.received }, (_, n) => n % 120 < 10).filter(
      Boolean,
    ).length;
    expect(answered429).toBeGreaterThanOrEqual(20);
    expect(waits.filter((ms) => ms === 1000).length).toBeGreaterThanOrEqual(answered429);
    expect(waits.every((ms) => ms >= 0 && Number.isFinite(ms))).toBe(true);
  }, 60_000);

  it('SIGKILL mid-run, then the same command with --use_cache: identical results, only in-flight requests re-sent', async () => {
    const expected = await reference();
    const slow = await server({ latencyMs: 25 });
    const out = tempDir();
    const cache = path.join(tempDir(), 'responses.sqlite');
    const args = runArgs(slow.completionsUrl, out, '', ['--use_cache', cache]);
    const first = startCli(args);
    const answered = () => [...slow.stats.answered.values()].reduce((a, b) => a + b, 0);
    while (answered() < 100) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.status).toBeNull();
    const answeredBefore = new Set(slow.stats.answered.keys());
    const receivedBefore = new Map(slow.stats.receivedBodies);

    const second = await startCli(args).done;
    expect(second.status).toBe(0);
    expect(comparable(out)).toEqual(expected);
    let resent = 0;
    let fresh = 0;
    for (const [key, count] of slow.stats.receivedBodies) {
      const extra = count - (receivedBefore.get(key) ?? 0);
      if (extra <= 0) continue;
      if (answeredBefore.has(key)) resent += extra;
      else fresh += extra;
    }
    // Answered before the kill but not yet written by the client: at most the 4 in flight.
    expect(resent).toBeLessThanOrEqual(4);
    expect(answeredBefore.size + fresh - resent).toBeGreaterThanOrEqual(280 - 4);
    expect(fresh + answeredBefore.size).toBeLessThanOrEqual(280 + 4);

    // A third run answers everything from the cache: no HTTP at all. The same command through the CLI's
    // main() in this process (test/support/cli-in-process.ts): the two runs above are the real CLI's.
    const before = slow.stats.received;
    const thirdOut = tempDir();
    const third = await runCliInProcess(runArgs(slow.completionsUrl, thirdOut, '', ['--use_cache', cache]));
    expect(third.status).toBe(0);
    expect(slow.stats.received).toBe(before);
    expect(comparable(thirdOut)).toEqual(expected);
  }, 60_000);

  it('a server that ignores echo (llama.cpp) stops the run with the cause and the fix (exit 1)', async () => {
    const llamaCpp = await server({ mode: 'ignore-echo' });
    const error = await evaluateOn(llamaCpp.completionsUrl).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AssayError);
    expect((error as AssayError).exitCode).toBe(1);
    const message = (error as AssayError).message;
    expect(message).toContain('returned no prompt log-probabilities');
    expect(message).toContain("llama.cpp's server silently ignores `echo`, and Ollama has no `echo`");
    expect(message).toContain('Fix: serve the model with vLLM or SGLang');
    expect(llamaCpp.stats.received).toBeLessThanOrEqual(4);
  }, 30_000);

  it('requests that keep failing become errored samples with the server message; the rest finish; exit 1', async () => {
    const picky = await server({
      failBodiesContaining: { text: 'Item 3:', message: 'context too long for this replica' },
    });
    const out = tempDir();
    const run = await startCli(runArgs(picky.completionsUrl, out, ',max_retries=2,retry_backoff=0.001')).done;
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('assay: 1 samples failed');
    const samples = readSamples(findOne(path.join(out, 'test'), /^samples_http_mc_.*\.jsonl$/));
    const errored = samples.filter((sample) => sample.error);
    expect(errored.map((sample) => sample.doc_id)).toEqual([3]);
    expect(errored[0].error).toMatch(
      /^loglikelihood request #\d+ "Item 3: .*": HTTP 500: context too long for this replica$/,
    );
  }, 30_000);
});
