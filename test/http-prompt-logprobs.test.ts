/**
 * vLLM's `prompt_logprobs` extension against the loopback server: detected at the first answer, used for
 * loglikelihood instead of echo, and scoring exactly as the echo path does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoglikelihoodResult } from '../src/models/backend.js';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { createHttpBackend } from '../src/models/http/create.js';
import { runBackendConformance } from '../src/testing/backend-conformance.js';
import { type Faults, startTestServer, type TestServer } from './fakes/openai-server.js';

let vllm: TestServer;
let echoOnly: TestServer;
/** Servers that answer HTTP 500 to bodies holding the suite's marker (createFailing). */
const failing: TestServer[] = [];
beforeAll(async () => {
  vllm = await startTestServer();
  echoOnly = await startTestServer({ promptLogprobs: false });
});
afterAll(async () => {
  await vllm.close();
  await echoOnly.close();
  for (const started of failing) await started.close();
});

/** The same backend against a server of the same shape that fails every request naming the marker. */
const failingOn =
  (faults: Faults, extra: Record<string, unknown> = {}) =>
  async (marker: string) => {
    const poisoned = await startTestServer({
      ...faults,
      failBodiesContaining: { text: marker, message: 'poisoned' },
    });
    failing.push(poisoned);
    return completions(poisoned, { max_retries: 2, retry_backoff: 0.001, ...extra });
  };

// lm-eval's local-completions defaults to token ids from a tokenizer it picks (openai_completions.py LocalCompletionsAPI tokenizer_backend='auto', api_models.py tokenized_requests=True); text-mode backends say tokenized_requests=false, token-id ones name the server's /tokenize.
const completions = (server: TestServer, extra: Record<string, unknown> = {}) =>
  createHttpBackend('local-completions', {
    tokenized_requests: false,
    model: 'test',
    base_url: server.completionsUrl,
    num_concurrent: 4,
    ...extra,
  });

runBackendConformance({
  name: 'local-completions, echo only (a server without prompt_logprobs)',
  create: () => completions(echoOnly),
  createFailing: failingOn({ promptLogprobs: false }),
});
runBackendConformance({
  name: 'local-completions, prompt_logprobs with token ids',
  create: () => completions(vllm, { tokenizer_backend: 'remote', tokenized_requests: true, batch_size: 2 }),
  createFailing: failingOn({}, { tokenizer_backend: 'remote', tokenized_requests: true, batch_size: 2 }),
  requestsPerCall: 2,
});

const requests = [
  { context: 'Question: 2+2=\nAnswer:', continuation: ' 4' },
  { context: 'The capital of France is', continuation: ' Paris' },
  { context: 'The capital of France is', continuation: ' a city of light' },
  { context: '', continuation: 'Once upon a time' },
  { context: 'Count: one two', continuation: ' three four five' },
];

describe('prompt_logprobs', () => {
  it('is used after the first answer and scores exactly as echo does (text and token modes)', async () => {
    // The server's model is the dummy character model (seed 7) behind a BOS token.
    const expected = await new DummyBackend({ seed: 7 }).loglikelihood({ requests });
    for (const extra of [{}, { tokenizer_backend: 'remote', tokenized_requests: true }]) {
      const before = { ...vllm.stats };
      const viaPromptLogprobs = completions(vllm, extra);
      const first = (await viaPromptLogprobs.loglikelihood({ requests })) as LoglikelihoodResult[];
      // One probe asking for both, then prompt_logprobs alone: 5 requests, 1 with echo.
      expect(vllm.stats.promptLogprobsRequests - before.promptLogprobsRequests).toBe(5);
      expect(vllm.stats.echoRequests - before.echoRequests).toBe(1);

      const echoBefore = { ...echoOnly.stats };
      const viaEcho = completions(echoOnly, extra);
      const second = (await viaEcho.loglikelihood({ requests })) as LoglikelihoodResult[];
      // The probe found no prompt_logprobs: every later request asks for echo alone.
      expect(echoOnly.stats.promptLogprobsRequests - echoBefore.promptLogprobsRequests).toBe(1);
      expect(echoOnly.stats.echoRequests - echoBefore.echoRequests).toBe(5);

      first.forEach((answer, i) => {
        expect(answer.logprob).toBeCloseTo(expected[i].logprob, 9);
        expect(answer.logprob).toBe(second[i].logprob);
        expect(answer.isGreedy).toBe(second[i].isGreedy);
      });
      await viaPromptLogprobs.close?.();
      await viaEcho.close?.();
    }
  });

  it('is_greedy comes from the ranks: the same as echo top_logprobs, on a mix of greedy and not', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      context: `Item ${i}:`,
      continuation: ` ${'ab'.repeat(i % 3)}x`,
    }));
    const a = (await completions(vllm).loglikelihood({ requests: many })) as LoglikelihoodResult[];
    const b = (await completions(echoOnly).loglikelihood({ requests: many })) as LoglikelihoodResult[];
    expect(a.map((answer) => answer.isGreedy)).toEqual(b.map((answer) => answer.isGreedy));
    const greedy = a.filter((answer) => answer.isGreedy).length;
    expect(greedy).toBeGreaterThan(0);
    expect(greedy).toBeLessThan(40);
  });

  it('rolling loglikelihood agrees between the two paths', async () => {
    const texts = [{ text: 'The quick brown fox jumps over the lazy dog.' }, { text: 'one two three' }];
    for (const extra of [{}, { tokenizer_backend: 'remote', tokenized_requests: true, max_length: 4 }]) {
      const a = await completions(vllm, extra).loglikelihoodRolling({ requests: texts });
      const b = await completions(echoOnly, extra).loglikelihoodRolling({ requests: texts });
      expect(a).toEqual(b);
      expect(typeof a[1]).toBe('number');
    }
  });

  it('prompt_logprobs=false never asks; prompt_logprobs=true against a server without it stops the run', async () => {
    const before = vllm.stats.promptLogprobsRequests;
    await completions(vllm, { prompt_logprobs: false }).loglikelihood({ requests });
    expect(vllm.stats.promptLogprobsRequests).toBe(before);
    await expect(
      completions(echoOnly, { prompt_logprobs: true }).loglikelihood({ requests }),
    ).rejects.toThrow(
      /returned no prompt log-probabilities \(loglikelihood request #0 .*: the response has no prompt_logprobs although the request asked for them\)/,
    );
  });
});
