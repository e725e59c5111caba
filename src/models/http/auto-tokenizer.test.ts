import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { autoTokenizerBackend } from './auto-tokenizer.js';

/**
 * lm-eval's check_remote_tokenizer_support (lm_eval/utils.py) against a loopback server: remote only when
 * GET /tokenizer_info answers an object with `eos_token` and POST /tokenize answers `{tokens: [...]}`,
 * each tried up to three times.
 */
interface Reply {
  status: number;
  body: string;
}
let server: Server;
let base: string;
let info: Reply[];
let tokenize: Reply[];
let seen: Array<{ method: string; path: string; body: string; auth?: string }>;

function next(replies: Reply[]): Reply {
  return replies.length > 1 ? (replies.shift() as Reply) : replies[0];
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        path: request.url ?? '',
        body,
        auth: request.headers.authorization,
      });
      const reply =
        request.url === '/tokenizer_info'
          ? next(info)
          : request.url === '/tokenize'
            ? next(tokenize)
            : undefined;
      response.writeHead(reply?.status ?? 404, { 'content-type': 'application/json' });
      response.end(reply?.body ?? '{"detail":"Not Found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  // vLLM with --enable-tokenizer-info-endpoint: the tokenizer config, eos_token included.
  info = [{ status: 200, body: '{"tokenizer_class":"LlamaTokenizerFast","eos_token":"</s>"}' }];
  tokenize = [{ status: 200, body: '{"count":1,"max_model_len":4096,"tokens":[1243]}' }];
});

describe('autoTokenizerBackend', () => {
  it('picks remote when both endpoints answer, asking at the server root as lm-eval does', async () => {
    expect(await autoTokenizerBackend(base, { authorization: 'Bearer k' }, 2000)).toBe('remote');
    expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /tokenizer_info',
      'POST /tokenize',
    ]);
    expect(JSON.parse(seen[1].body)).toEqual({ prompt: 'test', add_special_tokens: false });
    expect(seen.every((request) => request.auth === 'Bearer k')).toBe(true);
  });

  it('accepts a null eos_token: lm-eval checks the key, not its value', async () => {
    info = [{ status: 200, body: '{"eos_token":null}' }];
    expect(await autoTokenizerBackend(base, {}, 2000)).toBe('remote');
  });

  it('picks huggingface when /tokenizer_info is missing, lacks eos_token or is not an object', async () => {
    info = [{ status: 404, body: '{}' }];
    expect(await autoTokenizerBackend(base, {}, 2000)).toBe('huggingface');
    // Tried three times, /tokenize never asked.
    expect(seen.map((request) => request.path)).toEqual([
      '/tokenizer_info',
      '/tokenizer_info',
      '/tokenizer_info',
    ]);
    info = [{ status: 200, body: '{"tokenizer_class":"X"}' }];
    expect(await autoTokenizerBackend(base, {}, 2000)).toBe('huggingface');
    info = [{ status: 200, body: '["eos_token"]' }];
    expect(await autoTokenizerBackend(base, {}, 2000)).toBe('huggingface');
  });

  it('picks huggingface when /tokenize fails three times or answers without a token list', async () => {
    tokenize = [{ status: 500, body: '{}' }];
    expect(await autoTokenizerBackend(base, {}, 2000)).toBe('huggingface');
    expect(seen.filter((request) => request.path === '/tokenize')).toHaveLength(3);
    tokenize = [{ status: 200, body: '{"tokens":"1243"}' }];
    expect(await autoTokenizerBackend(base, {}, 2000)).toBe('huggingface');
  });

  it('retries a failing endpoint and takes its third answer', async () => {
    info = [
      { status: 503, body: '{}' },
      { status: 503, body: '{}' },
      { status: 200, body: '{"eos_token":"</s>"}' },
    ];
    tokenize = [
      { status: 500, body: '{}' },
      { status: 500, body: '{}' },
      { status: 200, body: '{"tokens":[]}' },
    ];
    expect(await autoTokenizerBackend(base, {}, 2000)).toBe('remote');
    expect(seen).toHaveLength(6);
  });

  it('picks huggingface when no server listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await autoTokenizerBackend(`http://127.0.0.1:${port}/v1/completions`, {}, 2000)).toBe(
      'huggingface',
    );
  });
});
