/**
 * A server that echoes the request's credentials in its error answer: the HTTP backends quote the
 * answer in the sample's error (and the run's messages) with every credential masked before the
 * answer is cut, so no part of a key is printed, wherever the cut falls.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpBackend } from '../src/models/http/create.js';

const KEY = 'sk-live-4f1c9a0e77b2d35c81a6f0e9d2b4c7aa';
const HEADER_KEY = 'hk-20b7e3f95ac14d6e8f0a1b2c3d4e5f6a';

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Answers every request with `status` and a body that quotes its headers after `padding` characters. */
async function echoingServer(status: number, body: (echo: string) => string): Promise<string> {
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const echo = `authorization: ${request.headers.authorization}; x-api-key: ${request.headers['x-api-key']}`;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body(echo));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}/v1/completions`;
}

async function errorOf(url: string): Promise<string> {
  const backend = createHttpBackend('local-completions', {
    // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
    tokenized_requests: false,
    model: 'test',
    base_url: url,
    api_key: KEY,
    headers: `X-Api-Key: ${HEADER_KEY}`,
    max_retries: 1,
  });
  try {
    const [answer] = await backend.generate({
      requests: [
        { context: 'Q: hi\nA:', until: ['\n'], maxGenToks: 4, temperature: 0, doSample: false, extra: {} },
      ],
    });
    return (answer as { message: string }).message;
  } finally {
    await backend.close?.();
  }
}

function expectNoPartOf(message: string, secret: string): void {
  for (let length = 6; length <= secret.length; length++)
    expect(message, `${secret.slice(0, length)} in ${message}`).not.toContain(secret.slice(0, length));
}

describe('HTTP backends quote a server answer with credentials masked before it is cut', () => {
  it('an error message whose echo of the key straddles the 500-character cut', async () => {
    // The message is 460 characters, then the echo: the key starts 482 characters in.
    const padding = `bad request: ${'the prompt was refused by the gateway. '.repeat(11)}`.padEnd(460, '.');
    expect(padding).toHaveLength(460);
    const url = await echoingServer(400, (echo) => JSON.stringify({ error: { message: padding + echo } }));
    const message = await errorOf(url);
    expectNoPartOf(message, KEY);
    expectNoPartOf(message, HEADER_KEY);
    const quoted = `${padding}authorization: Bearer ***; x-api-key: ***`.replace(/\s+/g, ' ');
    expect(message).toBe(`generate_until request #0 "Q: hi\\nA:": HTTP 400: ${quoted.slice(0, 500)}…`);
  });

  it('a body that is not JSON, quoted in its first 80 characters', async () => {
    const url = await echoingServer(200, (echo) => `<html>proxy error; ${echo}</html>`);
    const message = await errorOf(url);
    expectNoPartOf(message, KEY);
    expectNoPartOf(message, HEADER_KEY);
    expect(message).toMatch(
      /malformed JSON in the response \(\d+ bytes: "<html>proxy error; authorization: Bearer \*\*\*; x-api-key: \*\*\*<\/html>"\)$/,
    );
  });
});
