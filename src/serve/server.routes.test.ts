import { describe, expect, it } from 'vitest';
import { type ServedModel, serveApp } from './server.js';

/**
 * The routes of `assay serve` in process, through Hono's `app.request()`: statuses, headers and bodies of
 * the OpenAI/vLLM API surface, over a byte-level stand-in model (token = UTF-8 byte + 3, BOS = 1), so no
 * GGUF is needed. Scores and generations against a real engine are in server.test.ts and vllm-compat.test.ts.
 */
const VOCAB = 259;
const BOS = 1;

function byteModel(overrides: Partial<ServedModel> = {}): ServedModel {
  return {
    tokenize: async (text, withBos = false) => [
      ...(withBos ? [BOS] : []),
      ...[...Buffer.from(text, 'utf8')].map((byte) => byte + 3),
    ],
    detokenize: async (tokens) =>
      Buffer.from(tokens.filter((token) => token >= 3).map((token) => token - 3)).toString('utf8'),
    tokenizerInfo: async () => ({
      name: 'bytes',
      vocabSize: VOCAB,
      vocabSha256: 'f'.repeat(64),
      bos: BOS,
      addBos: true,
      prefixToken: BOS,
      maxWindowTokens: 64,
    }),
    promptLogprobs: async () => {
      throw new Error('not used by these routes');
    },
    generateTokens: async () => {
      throw new Error('not used by these routes');
    },
    applyChatTemplate: (messages) =>
      messages.map((message) => `<${message.role}>${message.content}`).join(''),
    chatTemplate: () => '{{ messages }}',
    engine: { nCtx: 64, vocabSize: VOCAB, addBos: true, bosString: '<s>', eosString: '</s>' },
    ...overrides,
  };
}

function post(body: unknown): RequestInit & { method: string } {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

const app = serveApp({ model: byteModel(), name: 'served' });

describe('assay serve routes (in process)', () => {
  it('lists the model as vLLM does and answers /health', async () => {
    const response = await app.request('/v1/models');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as { object: string; data: Array<Record<string, unknown>> };
    expect(body.object).toBe('list');
    expect(body.data).toEqual([
      { id: 'served', object: 'model', created: expect.any(Number), owned_by: 'assay', max_model_len: 64 },
    ]);
    expect(await (await app.request('/health')).json()).toEqual({ status: 'ok' });
    // Trailing slashes do not matter.
    expect((await app.request('/v1/models//')).status).toBe(200);
  });

  it('tokenizes as vLLM’s /tokenize (BOS unless add_special_tokens is false) and detokenizes', async () => {
    const withBos = await app.request('/tokenize', post({ prompt: 'ab' }));
    expect(await withBos.json()).toEqual({
      count: 3,
      max_model_len: 64,
      tokens: [1, 100, 101],
      token_strs: null,
    });
    const without = await app.request('/tokenize', post({ prompt: 'ab', add_special_tokens: false }));
    expect(((await without.json()) as { tokens: number[] }).tokens).toEqual([100, 101]);
    // A chat is rendered with the template and tokenized without special tokens by default.
    const chat = await app.request(
      '/tokenize',
      post({ messages: [{ role: 'user', content: 'a' }], add_generation_prompt: false }),
    );
    expect(((await chat.json()) as { tokens: number[] }).tokens).toEqual(
      [...Buffer.from('<user>a')].map((byte) => byte + 3),
    );
    const text = await app.request('/detokenize', post({ tokens: [100, 101] }));
    expect(await text.json()).toEqual({ prompt: 'ab' });
  });

  it('gives /tokenizer_info with the vocabulary’s size and hash and the special tokens', async () => {
    expect(await (await app.request('/tokenizer_info')).json()).toEqual({
      tokenizer_class: 'bytes',
      vocab_size: VOCAB,
      vocab_sha256: 'f'.repeat(64),
      bos_token_id: BOS,
      add_bos_token: true,
      model_max_length: 64,
      bos_token: '<s>',
      eos_token: '</s>',
      chat_template: '{{ messages }}',
    });
  });

  it.each([
    ['GET', '/v1/completions', 405],
    ['GET', '/tokenize', 405],
    ['POST', '/v1/models', 405],
    ['HEAD', '/v1/models', 405],
    ['DELETE', '/tokenizer_info', 405],
    ['GET', '/v2/completions', 404],
    ['GET', '/', 404],
    ['HEAD', '/health', 404],
    ['POST', '/health', 404],
  ])('%s %s answers %i with an OpenAI-style error', async (method, path, status) => {
    const response = await app.request(path, { method });
    expect(response.status).toBe(status);
    if (method === 'HEAD') return;
    const shown = path.replace(/\/+$/, '');
    expect(await response.json()).toEqual({
      error: { message: `${method} ${shown} is not served here`, type: 'invalid_request_error' },
    });
  });

  it('refuses bad bodies with 400, naming the field', async () => {
    const notJson = await app.request('/v1/completions', post('{"prompt": '));
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({
      error: { message: 'the body is not valid JSON', type: 'invalid_request_error' },
    });
    const noPrompt = await app.request('/v1/completions', post({ max_tokens: 1 }));
    expect(noPrompt.status).toBe(400);
    expect(((await noPrompt.json()) as { error: { message: string } }).error.message).toMatch(/^prompt: /);
    const streamed = await app.request('/v1/completions', post({ prompt: 'a', stream: true }));
    expect(streamed.status).toBe(400);
    expect(((await streamed.json()) as { error: { message: string } }).error.message).toMatch(/^stream: /);
    const both = await app.request(
      '/tokenize',
      post({ prompt: 'a', messages: [{ role: 'user', content: 'b' }] }),
    );
    expect(await both.json()).toEqual({
      error: {
        message: 'prompt: give either prompt (a text) or messages (a chat), not both',
        type: 'invalid_request_error',
      },
    });
  });

  it('refuses another model name with 404 and token ids outside the vocabulary with 400', async () => {
    const other = await app.request('/tokenize', post({ model: 'gpt-4', prompt: 'a' }));
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({
      error: {
        message: 'model "gpt-4" is not served here; this server serves "served"',
        type: 'invalid_request_error',
      },
    });
    const outside = await app.request('/detokenize', post({ tokens: [5, VOCAB] }));
    expect(outside.status).toBe(400);
    expect(await outside.json()).toEqual({
      error: {
        message: `token id ${VOCAB} is outside the vocabulary (${VOCAB})`,
        type: 'invalid_request_error',
      },
    });
  });

  it('refuses a prompt longer than the context with 400 before any engine work', async () => {
    const response = await app.request('/v1/completions', post({ prompt: 'x'.repeat(60), max_tokens: 10 }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'the prompt (61 tokens) plus max_tokens (10) exceeds the context of 64 tokens',
    );
  });

  it('refuses a body over 32 MiB with 413', async () => {
    const response = await app.request(
      '/tokenize',
      post(JSON.stringify({ prompt: 'x'.repeat(32 * 1024 * 1024) })),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { message: `the body is over ${32 * 1024 * 1024} bytes`, type: 'invalid_request_error' },
    });
  });

  it('answers 429 with Retry-After when the slots and the queue are full', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = byteModel({
      tokenize: async (text, withBos) => {
        await held;
        return byteModel().tokenize(text, withBos);
      },
    });
    const busy = serveApp({ model, name: 'served', concurrency: 1, queue: 1 });
    const first = busy.request('/tokenize', post({ prompt: 'a' }));
    const second = busy.request('/tokenize', post({ prompt: 'b' }));
    // Both are in: one running, one waiting; a third finds the queue full.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const third = await busy.request('/tokenize', post({ prompt: 'c' }));
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(await third.json()).toEqual({
      error: { message: 'too many requests are waiting; retry later', type: 'rate_limit_error' },
    });
    release();
    expect(((await (await first).json()) as { tokens: number[] }).tokens).toEqual([1, 100]);
    expect(((await (await second).json()) as { tokens: number[] }).tokens).toEqual([1, 101]);
  });

  it('turns an engine failure into 500 server_error with its message', async () => {
    const failing = serveApp({
      model: byteModel({
        detokenize: async () => {
          throw new Error('the engine worker exited');
        },
      }),
      name: 'served',
    });
    const response = await failing.request('/detokenize', post({ tokens: [5] }));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { message: 'the engine worker exited', type: 'server_error' },
    });
  });

  it('a chat without a chat template is refused with 400', async () => {
    const plain = serveApp({ model: byteModel({ chatTemplate: () => undefined }), name: 'served' });
    const response = await plain.request(
      '/v1/chat/completions',
      post({ messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: 'the model has no tokenizer.chat_template in its metadata; use /v1/completions',
        type: 'invalid_request_error',
      },
    });
  });
});
