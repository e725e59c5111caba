import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHttpModelArgs } from './model-args.js';
import { clientSettings, servedClient } from './served-client.js';

const local = { backend: 'local-completions', requireKey: false, tokenizerDefault: 'auto' as const };

describe('clientSettings', () => {
  it('turns the model args (seconds) into client options (milliseconds)', () => {
    const args = parseHttpModelArgs(
      {
        model: 'm',
        base_url: 'http://127.0.0.1:9/v1/completions,http://127.0.0.1:10/v1/completions',
        api_key: 'k',
        headers: 'X-Team: eval',
        num_concurrent: 4,
        max_retries: 5,
        timeout: 12.5,
        retry_backoff: 0.25,
        max_retry_wait: 7,
      },
      local,
    );
    const sleep = async () => undefined;
    expect(clientSettings('vllm', args, { sleep })).toEqual({
      model: 'm',
      apiKey: 'k',
      headers: { 'X-Team': 'eval' },
      numConcurrent: 4,
      maxAttempts: 5,
      timeoutMs: 12_500,
      retryBackoffMs: 250,
      maxRetryWaitMs: 7_000,
      label: 'vllm at http://127.0.0.1:9/v1/completions',
      sleep,
    });
  });

  it("keeps lm-eval's defaults: 3 attempts, 300 s per attempt, one request at a time", () => {
    const settings = clientSettings(
      'local-completions',
      parseHttpModelArgs({ model: 'm', base_url: 'http://h/v1/completions' }, local),
    );
    expect(settings).toMatchObject({ maxAttempts: 3, timeoutMs: 300_000, numConcurrent: 1 });
    expect(settings).not.toHaveProperty('sleep');
  });
});

describe('servedClient', () => {
  let server: Server;
  let url: string;
  const headers: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      headers.push(request.headers);
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            choices: [{ index: 0, text: 'x' }],
            usage: { prompt_tokens: 1000, completion_tokens: 500 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the key and headers, and prices usage as the model args say', async () => {
    const args = parseHttpModelArgs(
      {
        model: 'm',
        base_url: url,
        api_key: 'sk-test',
        headers: '{"X-Team":"eval"}',
        price_input_per_million: 2,
        price_output_per_million: 8,
      },
      local,
    );
    const { client, usage } = servedClient('local-completions', args, undefined);
    try {
      const outcome = await client.post(
        { model: 'm', prompt: 'a' },
        {
          cacheable: false,
          prompts: 1,
          describe: () => 'request 0',
          parse: (json) => json as { usage: { prompt_tokens: number; completion_tokens: number } },
          tokens: (value) => ({ in: value.usage.prompt_tokens, out: value.usage.completion_tokens }),
        },
      );
      expect(outcome.ok).toBe(true);
    } finally {
      await client.close();
    }
    expect(headers[0].authorization).toBe('Bearer sk-test');
    expect(headers[0]['x-team']).toBe('eval');
    const summary = usage.summary();
    expect(summary).toMatchObject({ requests: 1, httpRequests: 1, tokensIn: 1000, tokensOut: 500 });
    // 1000 × $2/M + 500 × $8/M = $0.006
    expect(summary.costUsd).toBeCloseTo(0.006, 12);
    expect(client.concurrency).toBe(1);
  });

  it('has no cost without prices', () => {
    const { client, usage } = servedClient(
      'local-completions',
      parseHttpModelArgs({ model: 'm', base_url: url }, local),
      undefined,
    );
    expect(usage.summary().costUsd).toBeNull();
    return client.close();
  });
});
