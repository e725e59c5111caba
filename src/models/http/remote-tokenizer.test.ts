import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AssayError } from '../../errors.js';
import { HttpClient } from './http-client.js';
import { RateLimiter } from './rate-limiter.js';
import { fetchTokenizerInfo, RemoteTokenizer, serverUrl, tokenizeUrl } from './remote-tokenizer.js';
import { UsageRecorder } from './usage-recorder.js';

/**
 * A loopback server with vLLM's /tokenize ({model, prompt, add_special_tokens} → {tokens}), /detokenize
 * ({model, tokens} → {prompt}) and /tokenizer_info. Its tokenizer: each character its code point, BOS 1
 * in front with special tokens unless `bosId` is null.
 */
let server: Server;
let base: string;
let bosId: number | null;
let broken: '' | 'tokenize' | 'detokenize' | 'shape';
let infoBody: string | null;
let tokenizeCalls: Array<{ prompt: string; add_special_tokens: boolean; model: string }>;

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.url === '/tokenizer_info') {
        if (infoBody === null) return reply(404, { detail: 'Not Found' });
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end(infoBody);
      }
      const body = JSON.parse(text);
      if (request.url === '/tokenize') {
        if (broken === 'tokenize') return reply(400, { error: 'no' });
        if (broken === 'shape') return reply(200, { tokens: ['a'] });
        tokenizeCalls.push(body);
        const ids = [...(body.prompt as string)].map((char) => char.codePointAt(0));
        return reply(200, { tokens: body.add_special_tokens && bosId !== null ? [bosId, ...ids] : ids });
      }
      if (request.url === '/detokenize') {
        if (broken === 'detokenize') return reply(404, { detail: 'Not Found' });
        if (broken === 'shape') return reply(200, { text: 'x' });
        return reply(200, {
          prompt: String.fromCodePoint(...(body.tokens as number[]).filter((id) => id !== 1)),
        });
      }
      reply(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  bosId = 1;
  broken = '';
  infoBody = null;
  tokenizeCalls = [];
});

function client(url: string): HttpClient {
  return new HttpClient({
    model: 'm',
    urls: [url],
    headers: {},
    numConcurrent: 2,
    maxAttempts: 1,
    timeoutMs: 5_000,
    retryBackoffMs: 0,
    maxRetryWaitMs: 0,
    rateLimiter: new RateLimiter(undefined, undefined),
    usage: new UsageRecorder({}),
  });
}

async function withTokenizer(run: (tokenizer: RemoteTokenizer) => Promise<void>): Promise<void> {
  const tokenize = client(tokenizeUrl(base));
  const detokenize = client(serverUrl(base, '/detokenize'));
  try {
    await run(
      new RemoteTokenizer(tokenize, 'served-model', detokenize, {
        baseUrl: base,
        headers: {},
        timeoutMs: 5_000,
      }),
    );
  } finally {
    await tokenize.close();
    await detokenize.close();
  }
}

describe('serverUrl', () => {
  it('puts a route at the server root of a /v1 endpoint, keeping any prefix before /v1', () => {
    expect(serverUrl('http://h:8000/v1/completions', '/tokenize')).toBe('http://h:8000/tokenize');
    expect(serverUrl('http://h:8000/v1/chat/completions', '/detokenize')).toBe('http://h:8000/detokenize');
    expect(serverUrl('https://gw.example/model-a/v1/completions', '/tokenize')).toBe(
      'https://gw.example/model-a/tokenize',
    );
    expect(tokenizeUrl('http://h:8000/v1/completions')).toBe('http://h:8000/tokenize');
  });
});

describe('RemoteTokenizer', () => {
  it('encodes with the server, without special tokens by default, and memoizes', async () => {
    await withTokenizer(async (tokenizer) => {
      expect(tokenizer.backend).toBe('remote');
      expect(await tokenizer.encode('hé😀')).toEqual([104, 233, 128512]);
      expect(await tokenizer.encode('hé😀', true)).toEqual([1, 104, 233, 128512]);
      expect(await tokenizer.encode('hé😀')).toEqual([104, 233, 128512]);
      expect(tokenizeCalls).toEqual([
        { model: 'served-model', prompt: 'hé😀', add_special_tokens: false },
        { model: 'served-model', prompt: 'hé😀', add_special_tokens: true },
      ]);
      expect(await tokenizer.decode([1, 104, 105])).toBe('hi');
    });
  });

  it('reads the BOS from encoding an empty text with special tokens, once', async () => {
    await withTokenizer(async (tokenizer) => {
      expect(await tokenizer.bos()).toBe(1);
      expect(await tokenizer.prefixToken()).toBe(1);
      expect(tokenizeCalls).toEqual([{ model: 'served-model', prompt: '', add_special_tokens: true }]);
    });
  });

  it('has no prefix token when the server adds none (GPT-2-like), and says what to do', async () => {
    bosId = null;
    await withTokenizer(async (tokenizer) => {
      expect(await tokenizer.bos()).toBeNull();
      await expect(tokenizer.prefixToken()).rejects.toThrow(
        /adds no start token.*tokenizer_backend=huggingface/,
      );
    });
  });

  it('stops the run (AssayError, exit 1) when /tokenize or /detokenize fails or answers another shape', async () => {
    for (const mode of ['tokenize', 'shape'] as const) {
      broken = mode;
      await withTokenizer(async (tokenizer) => {
        const error = await tokenizer.encode('x').catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(AssayError);
        expect((error as AssayError).exitCode).toBe(1);
        expect((error as Error).message).toContain("needs the server's /tokenize endpoint");
        if (mode === 'shape') expect((error as Error).message).toContain('malformed /tokenize response');
      });
    }
    broken = 'detokenize';
    await withTokenizer(async (tokenizer) => {
      await expect(tokenizer.decode([104])).rejects.toThrow(/needs the server's \/detokenize endpoint/);
    });
  });

  it('names the vocabulary in its identity only when /tokenizer_info gives it', async () => {
    await withTokenizer(async (tokenizer) => {
      const none = await tokenizer.identity();
      expect(none).toMatchObject({
        backend: 'remote',
        name: 'served-model',
        source: tokenizeUrl(base),
        sha256: null,
        vocabSize: null,
        vocabSha256: null,
      });
      expect(none.note).toContain('has no /tokenizer_info');
      infoBody = '{"tokenizer_class":"LlamaTokenizerFast","eos_token":"</s>"}';
      const config = await tokenizer.identity();
      expect(config.vocabSize).toBeNull();
      expect(config.note).toContain('(LlamaTokenizerFast) does not expose the vocabulary');
      const sha = 'a'.repeat(64);
      infoBody = JSON.stringify({ vocab_size: 32000, vocab_sha256: sha });
      const full = await tokenizer.identity();
      expect(full).toMatchObject({ vocabSize: 32000, vocabSha256: sha });
      expect(full.note).toBeUndefined();
    });
  });
});

describe('fetchTokenizerInfo', () => {
  it('is undefined for a missing route or a body of another shape', async () => {
    expect(await fetchTokenizerInfo(base, {}, 5_000)).toBeUndefined();
    infoBody = JSON.stringify({ vocab_size: 32000, vocab_sha256: 'not-hex' });
    expect(await fetchTokenizerInfo(base, {}, 5_000)).toBeUndefined();
    infoBody = JSON.stringify({ vocab_size: -1 });
    expect(await fetchTokenizerInfo(base, {}, 5_000)).toBeUndefined();
    infoBody = 'not json';
    expect(await fetchTokenizerInfo(base, {}, 5_000)).toBeUndefined();
    infoBody = '{"eos_token":null,"tokenizer_class":"X"}';
    expect(await fetchTokenizerInfo(base, {}, 5_000)).toEqual({ eos_token: null, tokenizer_class: 'X' });
  });
});
