import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryResponseCache } from '../../cache/memory-response-cache.js';
import { type GenerateRequest, RequestError } from '../backend.js';
import { completionsGeneration } from './completions-endpoint.js';
import { HttpClient } from './http-client.js';
import { RateLimiter } from './rate-limiter.js';
import { describeBatch, generateServed } from './served-loop.js';
import { UsageRecorder } from './usage-recorder.js';

/**
 * The one generation loop over a loopback /v1/completions server: answers land by request index, a
 * failed HTTP request errs exactly its own requests, in-flight requests stay under the concurrency,
 * greedy answers come from the cache the second time and sampled ones never do.
 */
let server: Server;
let url: string;
const bodies: Array<{ prompt: string | string[] }> = [];
let inFlight = 0;
let maxInFlight = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      const body = JSON.parse(text) as { prompt: string | string[] };
      bodies.push(body);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        const prompts = Array.isArray(body.prompt) ? body.prompt : [body.prompt];
        if (prompts.includes('fail')) {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end('{"error":{"message":"boom"}}');
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            object: 'text_completion',
            // Choices in reverse order: the index, not the position, says which prompt each answers.
            choices: prompts
              .map((prompt, index) => ({
                index,
                text: ` ${prompt.toUpperCase()}\n\nmore`,
                finish_reason: 'stop',
              }))
              .reverse(),
            usage: { prompt_tokens: prompts.length * 2, completion_tokens: prompts.length * 3 },
          }),
        );
      }, 15);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function client(cache?: MemoryResponseCache, usage = new UsageRecorder()): HttpClient {
  return new HttpClient({
    model: 'm',
    urls: [url],
    headers: {},
    numConcurrent: 2,
    maxAttempts: 1,
    timeoutMs: 10_000,
    retryBackoffMs: 0,
    maxRetryWaitMs: 0,
    cache,
    rateLimiter: new RateLimiter(undefined, undefined),
    usage,
  });
}

function request(context: string, doSample = false): GenerateRequest {
  return { context, until: ['\n\n'], maxGenToks: 8, temperature: doSample ? 1 : 0, doSample, extra: {} };
}

const endpoint = completionsGeneration({
  model: 'm',
  seed: 1,
  batchSize: 2,
  logprobs: false,
  serverStops: true,
  prompt: (r) => r.context,
});

describe('generateServed', () => {
  it('puts each answer at its request’s index, errs only the failed batch, and reports progress', async () => {
    bodies.length = 0;
    maxInFlight = 0;
    const usage = new UsageRecorder();
    const http = client(undefined, usage);
    const progress: number[] = [];
    const requests = ['a', 'b', 'fail', 'c', 'd', 'e', 'f'].map((context) => request(context));
    const answers = await generateServed(http, endpoint, requests, {
      concurrency: 2,
      progress: (done) => progress.push(done),
    });
    await http.close();
    expect(answers.slice(0, 2)).toEqual([
      { text: ' A', logprobs: null },
      { text: ' B', logprobs: null },
    ]);
    // "fail" went with "c" (batch_size 2): both are errored samples, with the server's status as cause.
    for (const failed of [answers[2], answers[3]]) {
      expect(failed).toBeInstanceOf(RequestError);
      expect((failed as RequestError).cause).toBe('HTTP 500');
    }
    expect(answers.slice(4)).toEqual([
      { text: ' D', logprobs: null },
      { text: ' E', logprobs: null },
      { text: ' F', logprobs: null },
    ]);
    expect(bodies.map((body) => body.prompt)).toEqual(
      expect.arrayContaining([['a', 'b'], ['fail', 'c'], ['d', 'e'], 'f']),
    );
    expect(bodies).toHaveLength(4);
    expect(maxInFlight).toBeLessThanOrEqual(2);
    expect(progress.at(-1)).toBe(7);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    const summary = usage.summary();
    expect(summary.failedRequests).toBe(2);
    expect([summary.tokensIn, summary.tokensOut]).toEqual([10, 15]);
  });

  it('answers greedy requests from the cache the second time; sampled requests always go out', async () => {
    const cache = new MemoryResponseCache();
    const http = client(cache);
    bodies.length = 0;
    const greedy = [request('x')];
    const first = await generateServed(http, endpoint, greedy, { concurrency: 1 });
    const second = await generateServed(http, endpoint, greedy, { concurrency: 1 });
    expect(second).toEqual(first);
    expect(bodies).toHaveLength(1);
    const sampled = [request('y', true)];
    await generateServed(http, endpoint, sampled, { concurrency: 1 });
    await generateServed(http, endpoint, sampled, { concurrency: 1 });
    expect(bodies).toHaveLength(3);
    await http.close();
  });

  it('names a batch in messages by its first request, its prompt’s start and the rest', () => {
    const texts = ['What is the capital of France? Answer with one word, then explain why.', 'b'];
    expect(describeBatch('generate_until', [0, 1], (index) => texts[index])).toBe(
      'generate_until request #0 "What is the capital of France? Answer with one word, then ex…" (and 1 more in the same HTTP request)',
    );
    expect(describeBatch('generate_until (chat)', [1], (index) => texts[index])).toBe(
      'generate_until (chat) request #1 "b"',
    );
  });
});
