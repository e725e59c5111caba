/**
 * Issue 15, HTTP half: servers that lie, stall, refuse or rate-limit, against the HTTP backends in
 * process. Every answer that does not fit the request is an errored sample naming the request and what
 * was wrong, never a score; a timeout is a deadline; 429 with Retry-After waits on its own budget; a run
 * whose first requests all fail the same way stops with the cause.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AssayError } from '../src/errors.js';
import {
  hasTokenScoring,
  isRequestError,
  type LoglikelihoodResult,
  type ModelBackend,
} from '../src/models/backend.js';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import type { ChatBackend } from '../src/models/http/chat-backend.js';
import type { CompletionsBackend } from '../src/models/http/completions-backend.js';
import { createHttpBackend } from '../src/models/http/create.js';
import { simpleEvaluate } from '../src/run/evaluate.js';
import { type Faults, startTestServer, type TestServer } from './fakes/openai-server.js';

const servers: TestServer[] = [];
const backends: ModelBackend[] = [];
afterEach(async () => {
  while (backends.length) await backends.pop()?.close?.();
  while (servers.length) await servers.pop()?.close();
});

async function server(faults: Faults = {}): Promise<TestServer> {
  const started = await startTestServer(faults);
  servers.push(started);
  return started;
}

function backend(
  name: 'local-completions' | 'local-chat-completions',
  url: string,
  extra: Record<string, unknown> = {},
): CompletionsBackend | ChatBackend {
  // lm-eval's local-completions defaults to token ids from a tokenizer it picks (openai_completions.py LocalCompletionsAPI tokenizer_backend='auto', api_models.py tokenized_requests=True); these tests send text unless they name the server's /tokenize.
  const created = createHttpBackend(name, {
    model: 'test',
    base_url: url,
    retry_backoff: 0.001,
    tokenized_requests: false,
    ...extra,
  });
  backends.push(created);
  return created;
}

const message = (answer: unknown) => (answer as { message: string }).message;

// The first request is the lie (the fake server corrupts only bodies holding "Lie"); the second is honest.
const requests = [
  { context: 'Lie: the capital of France is', continuation: ' Paris' },
  { context: 'Truth: one two', continuation: ' three four' },
];

/** The four ways local-completions reads prompt log-probabilities. */
const PATHS = [
  { name: 'echo, text', promptLogprobs: false, args: { prompt_logprobs: false } },
  {
    name: 'echo, token ids',
    promptLogprobs: false,
    args: { prompt_logprobs: false, tokenizer_backend: 'remote', tokenized_requests: true },
  },
  { name: 'prompt_logprobs, text', promptLogprobs: true, args: { prompt_logprobs: true } },
  {
    name: 'prompt_logprobs, token ids',
    promptLogprobs: true,
    args: { prompt_logprobs: true, tokenizer_backend: 'remote', tokenized_requests: true },
  },
] as const;

const LIES = {
  'drop-last': /logprobs|prompt_logprobs|tokens/,
  'drop-middle': /logprobs|prompt_logprobs|tokens/,
  'positive-logprob': /log-probability 3\.5, above 0/,
} as const;

describe('server answers are verified before they are scored', () => {
  for (const path of PATHS) {
    for (const [kind, why] of Object.entries(LIES)) {
      it(`${path.name}: ${kind} makes an errored sample naming the request; the honest one still scores`, async () => {
        // A token-id prompt carries no text to key the lie on: then every answer is corrupted.
        const tokenIds = 'tokenized_requests' in path.args;
        const liar = await server({
          promptLogprobs: path.promptLogprobs,
          corrupt: { kind: kind as keyof typeof LIES, onlyBodiesContaining: tokenIds ? undefined : 'Lie' },
        });
        const answers = await backend('local-completions', liar.completionsUrl, path.args).loglikelihood({
          requests,
        });
        const expected = await new DummyBackend({ seed: 7 }).loglikelihood({ requests });
        if (tokenIds) {
          for (const answer of answers) expect(isRequestError(answer)).toBe(true);
        } else {
          expect((answers[1] as LoglikelihoodResult).logprob).toBeCloseTo(expected[1].logprob, 9);
        }
        expect(isRequestError(answers[0])).toBe(true);
        expect(message(answers[0])).toMatch(/^loglikelihood request #0 "(Lie|Truth)[^"]*": /);
        expect(message(answers[0])).toMatch(why);
      });
    }
  }

  it('an honest SentencePiece server\'s dummy prefix space ("Once" echoed as " Once") still scores exactly', async () => {
    const spm = await server({ dummyPrefix: true });
    const honest = [
      { context: 'Once upon a time', continuation: ' there' },
      { context: '', continuation: 'Once upon a time' },
    ];
    const expected = await new DummyBackend({ seed: 7 }).loglikelihood({ requests: honest });
    for (const promptLogprobs of [false, true]) {
      const answers = (await backend('local-completions', spm.completionsUrl, {
        prompt_logprobs: promptLogprobs,
      }).loglikelihood({ requests: honest })) as LoglikelihoodResult[];
      answers.forEach((answer, i) => expect(answer.logprob).toBeCloseTo(expected[i].logprob, 9));
    }
  });

  it('a token window (perplexity) with a positive log-probability fails the call instead of scoring', async () => {
    const liar = await server({ promptLogprobs: false, corrupt: { kind: 'positive-logprob' } });
    const model = backend('local-completions', liar.completionsUrl, {
      tokenizer_backend: 'remote',
      tokenized_requests: true,
      prompt_logprobs: false,
    });
    if (!hasTokenScoring(model)) throw new Error('tokenized_requests=true declares token scoring');
    const tokens = await model.tokenize('one two three four');
    await expect(
      model.scoreTokenWindows({ requests: [{ tokens: [0, ...tokens], scoreFrom: 1 }] }),
    ).rejects.toThrow(/perplexity window 0 failed.*log-probability 3\.5/);
  });

  it('a generation whose text is null is an errored sample, not "" (completions and chat)', async () => {
    const liar = await server({ corrupt: { kind: 'null-text', onlyBodiesContaining: 'Lie' } });
    const generate = (context: string) => ({
      context,
      until: ['\n'],
      maxGenToks: 8,
      temperature: 0,
      doSample: false,
      extra: {},
    });
    for (const [name, url] of [
      ['local-completions', liar.completionsUrl],
      ['local-chat-completions', liar.chatUrl],
    ] as const) {
      const answers = await backend(name, url).generate({
        requests: [generate('Lie: say hi'), generate('Truth: say hi')],
      });
      expect(isRequestError(answers[0])).toBe(true);
      expect(message(answers[0])).toMatch(
        /^generate_until (\(chat\) )?request #0 "Lie: say hi": .*not a string/,
      );
      expect(typeof answers[1]).toBe('string');
    }
  });
});

describe('the prompt_logprobs probe', () => {
  it('a server that rejects the field with HTTP 400 is asked again with echo alone, and every request scores', async () => {
    const strict = await server({ rejectPromptLogprobs: true });
    const answers = await backend('local-completions', strict.completionsUrl).loglikelihood({
      requests,
    });
    const expected = await new DummyBackend({ seed: 7 }).loglikelihood({ requests });
    answers.forEach((answer, i) =>
      expect((answer as LoglikelihoodResult).logprob).toBeCloseTo(expected[i].logprob, 9),
    );
    // The probe, its echo retry, then echo alone.
    expect(strict.stats.received).toBe(3);
  });
});

describe('usage counts every request type as sent', () => {
  it('loglikelihood, rolling and generation tokens match what the server billed; cost follows', async () => {
    for (const noUsage of [false, true]) {
      const billed = await server({ promptLogprobs: false, noUsage });
      const model = backend('local-completions', billed.completionsUrl, {
        price_input_per_million: 3,
        price_output_per_million: 5,
      });
      await model.loglikelihood({ requests });
      await model.loglikelihoodRolling({
        requests: [{ text: 'The quick brown fox jumps over the lazy dog.' }],
      });
      const usage = model.usage();
      // What the server counted for the prompts it scored (its BOS included) and the tokens it generated.
      expect(usage.tokensIn).toBe(billed.stats.promptTokens);
      expect(usage.tokensOut).toBe(billed.stats.completionTokens);
      expect(usage.tokensIn).toBeGreaterThan(20);
      expect(usage.costUsd).toBeCloseTo((usage.tokensIn * 3 + usage.tokensOut * 5) / 1e6, 15);
      if (!noUsage) {
        await model.generate({
          requests: [
            {
              context: 'Q: hi?\nA:',
              until: ['\n'],
              maxGenToks: 8,
              temperature: 0,
              doSample: false,
              extra: {},
            },
          ],
        });
        expect(model.usage().tokensIn).toBe(billed.stats.promptTokens);
        expect(model.usage().tokensOut).toBe(billed.stats.completionTokens);
      }
    }
  });
});

describe('deadlines and rate limits', () => {
  it('timeout is a wall-clock deadline: a body trickled a byte every 400 ms fails at timeout=2', async () => {
    const slow = await server({ trickle: { intervalMs: 400, totalMs: 8000 } });
    const model = backend('local-completions', slow.completionsUrl, { timeout: 2, max_retries: 1 });
    const started = performance.now();
    const [answer] = await model.loglikelihood({ requests: [requests[1]] });
    const seconds = (performance.now() - started) / 1000;
    expect(message(answer)).toBe(
      'loglikelihood request #0 "Truth: one two three four": connection error: timed out',
    );
    expect(seconds).toBeGreaterThan(1.9);
    expect(seconds).toBeLessThan(3.5);
  }, 20_000);

  it('30 consecutive 429s with Retry-After succeed within max_retry_wait, whatever max_retries says', async () => {
    const limited = await server({ burst429: { every: 1000, length: 30, retryAfter: 0.01 } });
    const model = backend('local-completions', limited.completionsUrl, { max_retries: 3 });
    const answers = await model.loglikelihood({ requests: [requests[1]] });
    expect(isRequestError(answers[0])).toBe(false);
    expect(limited.stats.received).toBe(31);

    // The budget is what bounds it: 0.1 s of Retry-After waits cannot cover 30 × 0.01 s.
    const tight = await server({ burst429: { every: 1000, length: 30, retryAfter: 0.01 } });
    const bounded = backend('local-completions', tight.completionsUrl, { max_retry_wait: 0.1 });
    const [failed] = await bounded.loglikelihood({ requests: [requests[1]] });
    expect(message(failed)).toMatch(
      /HTTP 429: rate limited \(injected\) \(still rate limited after .* max_retry_wait=0\.1\)$/,
    );
    expect(tight.stats.received).toBeLessThan(15);
  });
});

describe('fail fast', () => {
  const generation = (i: number) => ({
    context: `Question ${i}: hi?`,
    until: ['\n'],
    maxGenToks: 8,
    temperature: 0,
    doSample: false,
    extra: {},
  });

  it('the first 8 requests all failing with the same HTTP 400 stop the run with that cause', async () => {
    const noTemplate = await server({
      failAll: { status: 400, message: 'the model has no tokenizer.chat_template' },
    });
    const model = backend('local-chat-completions', noTemplate.chatUrl, { num_concurrent: 2 });
    const run = model.generate({ requests: Array.from({ length: 40 }, (_, i) => generation(i)) });
    await expect(run).rejects.toBeInstanceOf(AssayError);
    await expect(run).rejects.toThrow(
      /the first 8 requests all failed the same way: HTTP 400: the model has no tokenizer\.chat_template \(e\.g\. generate_until \(chat\) request #\d+/,
    );
    expect(noTemplate.stats.received).toBeLessThanOrEqual(10);
  });

  it('every attempt of the first request failing to connect stops the run at once (exit 1)', async () => {
    // A port that was just free: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const model = backend('local-completions', `http://127.0.0.1:${port}/v1/completions`, {
      max_retries: 3,
    });
    const started = performance.now();
    const run = model.generate({ requests: Array.from({ length: 20 }, (_, i) => generation(i)) });
    await expect(run).rejects.toThrow(
      /could not connect to http:\/\/127\.0\.0\.1:\d+\/v1\/completions: all 3 attempts of generate_until request #\d+ .* failed \(connect ECONNREFUSED .*\) and no request has been answered/,
    );
    await run.catch((error: AssayError) => expect(error.exitCode).toBe(1));
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('retryable failures (HTTP 500 after its retries) do not stop the run: each request is an errored sample', async () => {
    const flaky = await server({ fail5xxRate: 1 });
    const model = backend('local-completions', flaky.completionsUrl, { max_retries: 1 });
    const answers = await model.generate({ requests: Array.from({ length: 10 }, (_, i) => generation(i)) });
    expect(answers.every(isRequestError)).toBe(true);
    expect(flaky.stats.received).toBe(10);
  });
});

describe('--max_latency_s on a served model', () => {
  it('aborts the request over the cap (the server sees the client go); its doc is timed out, not an error', async () => {
    const slow = await server({ slowBodiesContaining: { text: 'slowly', ms: 20_000 } });
    const model = backend('local-completions', slow.completionsUrl, { num_concurrent: 2 });
    const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-latency-http-'));
    const task = path.join(directory, 'served.jsonl');
    await writeFile(
      task,
      [
        '{"id": 0, "prompt": "Q: one", "targets": ["x"], "metric": "substring_contains"}',
        '{"id": 1, "prompt": "Q: answer slowly", "targets": ["x"], "metric": "substring_contains"}',
        '{"id": 2, "prompt": "Q: three", "targets": ["x"], "metric": "substring_contains"}',
        '',
      ].join('\n'),
    );
    const started = performance.now();
    const output = await simpleEvaluate({ model, tasks: [task], maxLatencyS: 0.5 });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(output.results.results.served).toMatchObject({ timeouts: 1, answered: 2, partial: true });
    expect(output.taskResults[0].metrics[0].n).toBe(2);
    expect(output.results.errors.samples).toBe(0);
    expect(output.samples.served[1].timed_out).toBe(true);
    // The abort reached the server: the connection of the slow request closed before its answer.
    for (let wait = 0; wait < 50 && slow.stats.abandoned === 0; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(slow.stats.abandoned).toBe(1);
    expect(slow.stats.received).toBe(3);
    // A cancelled request is not a failure of the server.
    expect(model.usage?.().failedRequests).toBe(0);
  });
});
