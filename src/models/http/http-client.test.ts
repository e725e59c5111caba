import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryResponseCache } from '../../cache/memory-response-cache.js';
import { AssayError } from '../../errors.js';
import {
  FAIL_FAST_REQUESTS,
  HttpClient,
  type HttpClientOptions,
  type PostOptions,
  ResponseShapeError,
  serverMessage,
} from './http-client.js';
import { RateLimiter } from './rate-limiter.js';
import { UsageRecorder } from './usage-recorder.js';

/**
 * The client against a loopback server that answers from a script (the last reply repeats). Waits go to
 * an injected sleep that records them and returns at once, so retries and Retry-After cost no time.
 */
interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}
let server: Server;
let url: string;
let script: Reply[];
let received: Array<{ body: string; authorization?: string }>;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      received.push({ body, authorization: request.headers.authorization });
      const reply = script.length > 1 ? (script.shift() as Reply) : script[0];
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  script = [{ status: 200, body: '{"n":1,"usage":{"in":3,"out":4}}' }];
});

const OK: Reply = { status: 200, body: '{"n":1,"usage":{"in":3,"out":4}}' };

function make(over: Partial<HttpClientOptions> = {}) {
  const waits: number[] = [];
  const usage = new UsageRecorder();
  const client = new HttpClient({
    model: 'm',
    urls: [url],
    headers: {},
    numConcurrent: 1,
    maxAttempts: 3,
    timeoutMs: 5_000,
    retryBackoffMs: 100,
    maxRetryWaitMs: 60_000,
    rateLimiter: new RateLimiter(undefined, undefined),
    usage,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...over,
  });
  return { client, usage, waits };
}

const readN: PostOptions<number> = {
  cacheable: true,
  prompts: 1,
  describe: () => 'request 0',
  parse: (json) => {
    const n = (json as { n?: unknown }).n;
    if (typeof n !== 'number') throw new ResponseShapeError('no n', 'bad answer');
    return n;
  },
  tokens: () => ({ in: 3, out: 4 }),
};

describe('HttpClient.post', () => {
  it('sends the JSON payload with the key as a Bearer token and parses the answer', async () => {
    const { client, usage } = make({ apiKey: 'sk-abc' });
    try {
      expect(await client.post({ model: 'm', prompt: 'hi' }, readN)).toEqual({ ok: true, value: 1 });
    } finally {
      await client.close();
    }
    expect(JSON.parse(received[0].body)).toEqual({ model: 'm', prompt: 'hi' });
    expect(received[0].authorization).toBe('Bearer sk-abc');
    expect(usage.summary()).toMatchObject({
      requests: 1,
      httpRequests: 1,
      tokensIn: 3,
      tokensOut: 4,
      retries: 0,
    });
  });

  it('retries a 500 within max attempts, waiting a jittered backoff below the ceiling', async () => {
    script = [{ status: 500, body: '{}' }, { status: 502, body: '{}' }, OK];
    const { client, usage, waits } = make();
    try {
      expect(await client.post({ p: 1 }, readN)).toEqual({ ok: true, value: 1 });
    } finally {
      await client.close();
    }
    expect(received).toHaveLength(3);
    expect(waits).toHaveLength(2);
    // Full jitter below base·2^(attempt−1): [0, 100) then [0, 200).
    expect(waits[0]).toBeGreaterThanOrEqual(0);
    expect(waits[0]).toBeLessThan(100);
    expect(waits[1]).toBeLessThan(200);
    expect(usage.summary()).toMatchObject({ httpRequests: 3, retries: 2, failedRequests: 0 });
  });

  it('gives up after max attempts with the last cause', async () => {
    script = [{ status: 500, body: '{"error":{"message":"engine died"}}' }];
    const { client, usage } = make();
    try {
      expect(await client.post({ p: 1 }, readN)).toEqual({
        ok: false,
        error: 'request 0: HTTP 500: engine died',
        cause: 'HTTP 500',
      });
    } finally {
      await client.close();
    }
    expect(received).toHaveLength(3);
    expect(usage.summary().failedRequests).toBe(1);
  });

  it('does not retry a 400, quoting the server (FastAPI/vLLM detail)', async () => {
    script = [{ status: 400, body: '{"detail":"max_tokens must be at least 1"}' }];
    const { client } = make();
    try {
      expect(await client.post({ p: 1 }, readN)).toEqual({
        ok: false,
        error: 'request 0: HTTP 400: max_tokens must be at least 1',
        cause: 'HTTP 400',
      });
    } finally {
      await client.close();
    }
    expect(received).toHaveLength(1);
  });

  it('does not retry an answer of the wrong shape; retries malformed JSON (a cut body)', async () => {
    script = [{ status: 200, body: '{"m":1}' }];
    const shape = make();
    try {
      expect(await shape.client.post({ p: 1 }, readN)).toEqual({
        ok: false,
        error: 'request 0: no n',
        cause: 'bad answer',
      });
      expect(received).toHaveLength(1);
      script = [{ status: 200, body: '{"n":' }, OK];
      expect(await shape.client.post({ p: 2 }, readN)).toEqual({ ok: true, value: 1 });
      expect(received).toHaveLength(3);
    } finally {
      await shape.client.close();
    }
  });

  it("waits a 429's Retry-After without spending attempts, within max_retry_wait", async () => {
    const limited: Reply = { status: 429, body: '{}', headers: { 'retry-after': '2' } };
    script = [limited, limited, limited, OK];
    const { client, waits } = make({ maxAttempts: 1 });
    try {
      expect(await client.post({ p: 1 }, readN)).toEqual({ ok: true, value: 1 });
    } finally {
      await client.close();
    }
    expect(received).toHaveLength(4);
    // Every wait is the Retry-After (2 s); the injected sleep returns at once, so the server-wide pause
    // that follows each one is still in the future and is waited again: at least one per 429.
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(waits.every((ms) => ms > 1900 && ms <= 2000)).toBe(true);
  });

  it('fails a 429 once the Retry-After waits would pass max_retry_wait', async () => {
    script = [{ status: 429, body: '{"error":{"message":"slow down"}}', headers: { 'retry-after': '2' } }];
    const { client } = make({ maxAttempts: 1, maxRetryWaitMs: 5_000 });
    try {
      const outcome = await client.post({ p: 1 }, readN);
      expect(outcome).toEqual({
        ok: false,
        error:
          'request 0: HTTP 429: slow down (still rate limited after 4.0 s of Retry-After waits; max_retry_wait=5)',
        cause: 'HTTP 429',
      });
    } finally {
      await client.close();
    }
    expect(received).toHaveLength(3);
  });

  it('answers a cacheable request from the cache the second time, a sampled one never', async () => {
    const cache = new MemoryResponseCache();
    const { client, usage } = make({ cache });
    try {
      expect(await client.post({ p: 'same' }, readN)).toEqual({ ok: true, value: 1 });
      expect(await client.post({ p: 'same' }, readN)).toEqual({ ok: true, value: 1 });
      expect(received).toHaveLength(1);
      await client.post({ p: 'same' }, { ...readN, cacheable: false });
      await client.post({ p: 'same' }, { ...readN, cacheable: false });
      expect(received).toHaveLength(3);
    } finally {
      await client.close();
    }
    expect(usage.summary()).toMatchObject({ requests: 4, cachedRequests: 1, httpRequests: 3 });
  });

  it('stops the run when the first 8 requests fail the same non-retryable way', async () => {
    script = [{ status: 404, body: '{"error":{"message":"The model `m` does not exist."}}' }];
    const { client } = make({ label: 'local-completions at x' });
    try {
      for (let i = 0; i < FAIL_FAST_REQUESTS - 1; i++)
        expect((await client.post({ i }, readN)).ok).toBe(false);
      const stop = await client.post({ i: 7 }, readN).catch((error: unknown) => error);
      expect(stop).toBeInstanceOf(AssayError);
      expect((stop as AssayError).exitCode).toBe(1);
      expect((stop as Error).message).toBe(
        'local-completions at x: the first 8 requests all failed the same way: HTTP 404: The model `m` does not exist. (e.g. request 0); stopping instead of sending the rest',
      );
      // Later requests are refused without being sent.
      await expect(client.post({ i: 8 }, readN)).rejects.toBe(stop);
      expect(received).toHaveLength(8);
    } finally {
      await client.close();
    }
  });

  it('does not stop when an answer arrived before the failures', async () => {
    script = [OK, { status: 404, body: '{}' }];
    const { client } = make();
    try {
      expect((await client.post({ i: 0 }, readN)).ok).toBe(true);
      for (let i = 1; i <= FAIL_FAST_REQUESTS + 1; i++)
        expect((await client.post({ i }, readN)).ok).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('stops at once when no attempt of the first request can connect', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client, waits } = make({ urls: [`http://127.0.0.1:${port}/v1/completions`], maxAttempts: 2 });
    try {
      await expect(client.post({ p: 1 }, readN)).rejects.toThrow(
        /could not connect to .*all 2 attempts of request 0 failed/,
      );
    } finally {
      await client.close();
    }
    expect(waits).toHaveLength(1);
  });
});

describe('serverMessage', () => {
  it("reads OpenAI's error object, message, detail, or the text", () => {
    expect(serverMessage('{"error":{"message":"bad key","type":"invalid_request_error"}}')).toBe('bad key');
    expect(serverMessage('{"error":"plain"}')).toBe('plain');
    expect(serverMessage('{"message":"m"}')).toBe('m');
    expect(serverMessage('{"detail":"Not Found"}')).toBe('Not Found');
    expect(serverMessage('<html>502 Bad Gateway</html>')).toBe('<html>502 Bad Gateway</html>');
    expect(serverMessage('')).toBe('(empty body)');
  });

  it('masks secrets and cuts to 500 characters', () => {
    const quoted = serverMessage('{"error":{"message":"key sk-secret-123 is invalid"}}', ['sk-secret-123']);
    expect(quoted).not.toContain('sk-secret-123');
    expect(quoted).toContain('is invalid');
    expect(serverMessage('x'.repeat(2000)).length).toBeLessThanOrEqual(501);
  });
});
