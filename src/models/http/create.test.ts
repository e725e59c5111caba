import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssayError } from '../../errors.js';
import { ChatBackend } from './chat-backend.js';
import { CompletionsBackend } from './completions-backend.js';
import { createHttpBackend, openHttpBackend, validateHttpModelArgs } from './create.js';

const url = 'http://127.0.0.1:9/v1/completions';

describe('validateHttpModelArgs (no network, before anything starts)', () => {
  it('accepts args a backend can be built from, and a Hub id it would fetch later', () => {
    expect(() =>
      validateHttpModelArgs('local-completions', { model: 'm', base_url: url, tokenizer_backend: 'remote' }),
    ).not.toThrow();
    expect(() =>
      validateHttpModelArgs('local-completions', { model: 'm', base_url: url, tokenizer: 'org/model' }),
    ).not.toThrow();
  });

  it('rejects a local tokenizer path that does not exist, or a folder without tokenizer.json', () => {
    const missing = path.join(tmpdir(), 'assay-no-such-dir', 'tokenizer.json');
    expect(() =>
      validateHttpModelArgs('local-completions', { model: 'm', base_url: url, tokenizer: missing }),
    ).toThrow(`tokenizer=${missing}: no such file or folder`);
    const empty = mkdtempSync(path.join(tmpdir(), 'assay-create-'));
    try {
      const error = (() => {
        try {
          validateHttpModelArgs('local-completions', { model: 'm', base_url: url, tokenizer: empty });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(AssayError);
      expect((error as Error).message).toContain(empty);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('rejects chat-template variables on a chat endpoint, naming the label', () => {
    expect(() =>
      validateHttpModelArgs(
        'local-chat-completions',
        { model: 'm', base_url: url, enable_thinking: true },
        'my-chat',
      ),
    ).toThrow(/`modelArgs` for my-chat: enable_thinking are chat-template variables/);
  });

  it('names the label in model-arg errors', () => {
    expect(() => validateHttpModelArgs('local-completions', { base_url: url }, 'vllm')).toThrow(
      /`modelArgs` for vllm: model=/,
    );
  });
});

describe('createHttpBackend', () => {
  it('builds a completions backend whose token scoring follows tokenized_requests', async () => {
    const remote = createHttpBackend('local-completions', {
      model: 'm',
      base_url: url,
      tokenizer_backend: 'remote',
    });
    const text = createHttpBackend('local-completions', {
      model: 'm',
      base_url: url,
      tokenized_requests: false,
    });
    try {
      expect(remote).toBeInstanceOf(CompletionsBackend);
      expect(remote.capabilities.tokenScoring).toBe(true);
      expect(text.capabilities.tokenScoring).toBe(false);
      expect(remote.concurrency).toBe(1);
    } finally {
      await remote.close();
      await text.close();
    }
  });

  it('builds a chat backend, which scores no tokens', async () => {
    const chat = createHttpBackend('local-chat-completions', {
      model: 'm',
      base_url: 'http://127.0.0.1:9/v1/chat/completions',
    });
    try {
      expect(chat).toBeInstanceOf(ChatBackend);
      expect(chat.capabilities.loglikelihood).toBe(false);
    } finally {
      await chat.close();
    }
  });

  it('refuses what only openHttpBackend can settle (auto, a local tokenizer)', () => {
    expect(() => createHttpBackend('local-completions', { model: 'm', base_url: url })).toThrow(
      /tokenizer_backend=auto is settled by openHttpBackend/,
    );
    expect(() =>
      createHttpBackend('local-completions', { model: 'm', base_url: url, tokenizer: 'org/model' }),
    ).toThrow(/tokenizer_backend=huggingface/);
  });
});

describe('openHttpBackend with tokenizer_backend=auto', () => {
  let server: Server;
  let base: string;
  const paths: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      request.on('end', () => {
        paths.push(`${request.method} ${request.url}`);
        response.writeHead(200, { 'content-type': 'application/json' });
        if (request.url === '/tokenizer_info') return response.end('{"eos_token":"</s>"}');
        const body = JSON.parse(text) as { prompt: string };
        response.end(JSON.stringify({ tokens: [...body.prompt].map((char) => char.codePointAt(0)) }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("settles on the server's tokenizer when it offers /tokenizer_info and /tokenize", async () => {
    const backend = await openHttpBackend('local-completions', { model: 'm', base_url: base });
    try {
      expect(backend.capabilities.tokenScoring).toBe(true);
      expect(await backend.tokenize('ab')).toEqual([97, 98]);
      expect(paths).toEqual(['GET /tokenizer_info', 'POST /tokenize', 'POST /tokenize']);
    } finally {
      await backend.close();
    }
  });
});
