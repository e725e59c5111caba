import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRequestError, type LoglikelihoodResult } from '../src/models/backend.js';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { createHttpBackend } from '../src/models/http/create.js';
import { runBackendConformance } from '../src/testing/backend-conformance.js';
import { startTestServer, type TestServer } from './fakes/openai-server.js';

let server: TestServer;
/** Servers that answer HTTP 500 to bodies holding the suite's marker (createFailing). */
const failing: TestServer[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
  for (const started of failing) await started.close();
});

// lm-eval's local-completions defaults to token ids from a tokenizer it picks (openai_completions.py LocalCompletionsAPI tokenizer_backend='auto', api_models.py tokenized_requests=True); text-mode backends say tokenized_requests=false, token-id ones name the server's /tokenize.
const completions = (extra: Record<string, unknown> = {}) =>
  createHttpBackend('local-completions', {
    tokenized_requests: false,
    model: 'test',
    base_url: server.completionsUrl,
    num_concurrent: 4,
    ...extra,
  });

/** The same backend against a server that fails every request naming the marker, after one retry. */
const failingOn =
  (name: 'local-completions' | 'local-chat-completions', extra: Record<string, unknown> = {}) =>
  async (marker: string) => {
    const poisoned = await startTestServer({ failBodiesContaining: { text: marker, message: 'poisoned' } });
    failing.push(poisoned);
    return createHttpBackend(name, {
      model: 'test',
      base_url: name === 'local-completions' ? poisoned.completionsUrl : poisoned.chatUrl,
      tokenized_requests: false,
      num_concurrent: 4,
      max_retries: 2,
      retry_backoff: 0.001,
      ...extra,
    });
  };

runBackendConformance({
  name: 'local-completions (text, text_offset)',
  create: () => completions(),
  createFailing: failingOn('local-completions'),
});
runBackendConformance({
  name: 'local-completions (batched, 3 prompts per request)',
  create: () => completions({ batch_size: 3 }),
  createFailing: failingOn('local-completions', { batch_size: 3 }),
  requestsPerCall: 3,
});
runBackendConformance({
  name: 'local-completions (token ids via /tokenize)',
  create: () => completions({ tokenizer_backend: 'remote', tokenized_requests: true }),
  createFailing: failingOn('local-completions', { tokenizer_backend: 'remote', tokenized_requests: true }),
});
runBackendConformance({
  name: 'local-chat-completions',
  create: () => createHttpBackend('local-chat-completions', { model: 'test', base_url: server.chatUrl }),
  createFailing: failingOn('local-chat-completions'),
});

describe('local-completions against the loopback vLLM-shaped server', () => {
  it('scores exactly what the server model gives, in text and token modes (the dummy character model)', async () => {
    // The server's model is the dummy backend's character model with seed 7 behind a BOS token, so a
    // continuation that starts at a token boundary must score exactly as DummyBackend scores it.
    const requests = [
      { context: 'Question: 2+2=\nAnswer:', continuation: ' 4' },
      { context: 'The capital of France is', continuation: ' Paris' },
      { context: '', continuation: 'Once upon a time' },
    ];
    const expected = await new DummyBackend({ seed: 7 }).loglikelihood({ requests });
    for (const backend of [
      completions(),
      completions({ tokenizer_backend: 'remote', tokenized_requests: true, batch_size: 2 }),
    ]) {
      const answers = (await backend.loglikelihood({ requests })) as LoglikelihoodResult[];
      answers.forEach((answer, i) => expect(answer.logprob).toBeCloseTo(expected[i].logprob, 9));
      await backend.close?.();
    }
  });

  it('generates with stop strings cut and reports usage with cost', async () => {
    const backend = completions({ price_input_per_million: 1, price_output_per_million: 2 });
    const answers = await backend.generate({
      requests: [
        {
          context: 'Q: 3+4?\nA:',
          until: ['\n\n'],
          maxGenToks: 32,
          temperature: 0,
          doSample: false,
          extra: {},
        },
      ],
    });
    expect(typeof answers[0]).toBe('string');
    expect(answers[0]).not.toContain('\n\n');
    const usage = backend.usage?.();
    expect(usage?.requests).toBe(1);
    expect(usage?.tokensIn).toBeGreaterThan(0);
    expect(usage?.costUsd).toBeCloseTo(((usage?.tokensIn ?? 0) * 1 + (usage?.tokensOut ?? 0) * 2) / 1e6, 12);
    await backend.close?.();
  });
});

describe('servers that cannot or do not answer properly', () => {
  it('stops at the first response when the server ignores echo (llama.cpp) or gives no logprobs (Ollama)', async () => {
    for (const mode of ['ignore-echo', 'no-logprobs'] as const) {
      const bad = await startTestServer({ mode });
      const backend = createHttpBackend('local-completions', {
        tokenized_requests: false,
        model: 'test',
        base_url: bad.completionsUrl,
        num_concurrent: 2,
      });
      const requests = Array.from({ length: 50 }, (_, i) => ({
        context: `Question ${i}:`,
        continuation: ' yes',
      }));
      await expect(backend.loglikelihood({ requests })).rejects.toThrow(
        /no prompt log-probabilities.*llama\.cpp.*ignores `echo`.*Ollama has no `echo`.*vLLM or SGLang/s,
      );
      // It stopped at the first answers instead of sending all 50.
      expect(bad.stats.received).toBeLessThanOrEqual(3);
      await backend.close?.();
      await bad.close();
    }
  });

  it('malformed bodies become errors naming the request; retryable failures are retried', async () => {
    const bad = await startTestServer({ mode: 'wrong-choice-count' });
    const backend = createHttpBackend('local-completions', {
      tokenized_requests: false,
      model: 'test',
      base_url: bad.completionsUrl,
      batch_size: 2,
      retry_backoff: 0.001,
    });
    const answers = await backend.loglikelihood({
      requests: [
        { context: 'a b', continuation: ' c' },
        { context: 'd e', continuation: ' f' },
      ],
    });
    expect(isRequestError(answers[0])).toBe(true);
    expect((answers[0] as { message: string }).message).toBe(
      'loglikelihood request #0 "a b c" (and 1 more in the same HTTP request): the response has 1 choices (indices 0) for 2 prompts',
    );
    // A shape error is not retried: one HTTP request.
    expect(bad.stats.received).toBe(1);
    await backend.close?.();
    bad.faults.mode = 'missing-choices';
    const again = createHttpBackend('local-completions', {
      tokenized_requests: false,
      model: 'test',
      base_url: bad.completionsUrl,
    });
    const [missing] = await again.loglikelihood({ requests: [{ context: 'a b', continuation: ' c' }] });
    expect((missing as { message: string }).message).toBe(
      'loglikelihood request #0 "a b c": malformed completions response: choices: Invalid input: expected array, received undefined',
    );
    await again.close?.();
    await bad.close();
  });

  it('truncated JSON, resets, timeouts and 500s are retried; exhausted retries carry the last message', async () => {
    const flaky = await startTestServer({ truncateRate: 1 });
    const backend = createHttpBackend('local-completions', {
      tokenized_requests: false,
      model: 'test',
      base_url: flaky.completionsUrl,
      max_retries: 2,
      retry_backoff: 0.001,
    });
    const [answer] = await backend.loglikelihood({ requests: [{ context: 'a', continuation: ' b' }] });
    expect((answer as { message: string }).message).toMatch(
      /^loglikelihood request #0 "a b": malformed JSON in the response/,
    );
    expect(flaky.stats.received).toBe(2);
    flaky.faults.truncateRate = 0;
    flaky.faults.fail5xxRate = 1;
    const [failed] = await backend.loglikelihood({ requests: [{ context: 'a', continuation: ' b' }] });
    expect((failed as { message: string }).message).toBe(
      'loglikelihood request #0 "a b": HTTP 500: injected server error',
    );
    flaky.faults.fail5xxRate = 0;
    flaky.faults.hangRate = 1;
    const timeoutBackend = createHttpBackend('local-completions', {
      tokenized_requests: false,
      model: 'test',
      base_url: flaky.completionsUrl,
      max_retries: 2,
      timeout: 0.2,
      retry_backoff: 0.001,
    });
    const [timedOut] = await timeoutBackend.loglikelihood({
      requests: [{ context: 'a', continuation: ' b' }],
    });
    expect((timedOut as { message: string }).message).toBe(
      'loglikelihood request #0 "a b": connection error: timed out',
    );
    await backend.close?.();
    await timeoutBackend.close?.();
    await flaky.close();
  });
});
