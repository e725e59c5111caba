/**
 * Token-level perplexity (strided, chunked) through local-completions with tokenized_requests=true:
 * against `assay serve` of a generated GGUF it must equal the in-process gguf backend, and against the
 * vLLM-shaped loopback fixture it must read echo and prompt_logprobs alike and say what it cannot know.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/fakes/openai-server.js';
import { GgufBackend } from '../../models/gguf/gguf-backend.js';
import { randomLlamaGguf } from '../../models/gguf/llama-model.js';
import { writeGguf } from '../../models/gguf/writer.js';
import type { CompletionsBackend } from '../../models/http/completions-backend.js';
import { createHttpBackend } from '../../models/http/create.js';
import { type RunningServer, startServer } from '../../serve/server.js';
import { textPerplexity } from './text-perplexity.js';

const TEXT =
  'The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs!\nHow vexingly quick daft zebras jump; sphinx of black quartz, judge my vow.';
const SOURCE = { file: 'text', sha256: '' };

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-ppl-http-'));
const modelPath = path.join(directory, 'served.gguf');
await writeFile(modelPath, writeGguf(randomLlamaGguf({ seed: 23 })));

describe('strided and chunked perplexity through assay serve', () => {
  let inProcess: GgufBackend;
  let server: RunningServer;
  let client: CompletionsBackend;
  beforeAll(async () => {
    inProcess = await GgufBackend.create({ modelPath, threads: 1, sequences: 2, nCtx: 64 });
    server = await startServer({ model: inProcess, name: 'served', port: 0, concurrency: 2 });
    client = createHttpBackend('local-completions', {
      // The server's /tokenize, named rather than left to lm-eval's default tokenizer_backend=auto.
      tokenizer_backend: 'remote',
      model: 'served',
      base_url: `${server.url}/v1/completions`,
      tokenized_requests: true,
      max_length: 64,
      num_concurrent: 3,
      batch_size: 2,
    });
  });
  afterAll(async () => {
    await client?.close?.();
    await server?.close();
    await inProcess?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('declares token scoring and names the served vocabulary as the GGUF does', async () => {
    expect(client.capabilities.tokenScoring).toBe(true);
    const remote = await client.tokenizerInfo();
    const local = await inProcess.tokenizerInfo();
    expect(remote).toEqual({ ...local, name: 'served', maxWindowTokens: 64 });
    expect(await client.tokenize(TEXT)).toEqual(await inProcess.tokenize(TEXT));
    const tokens = await inProcess.tokenize(TEXT);
    expect(await client.detokenize(tokens.slice(3, 20))).toBe(
      await inProcess.detokenize(tokens.slice(3, 20)),
    );
  });

  for (const options of [
    { mode: 'strided', maxLength: 32, stride: 8 },
    { mode: 'strided', maxLength: 40, stride: 40 },
    { mode: 'strided', maxLength: 64, stride: 17 },
    { mode: 'chunked', maxLength: 32 },
  ] as const) {
    it(`${JSON.stringify(options)}: equals the in-process gguf backend within 1e-4`, async () => {
      const [remote, local] = await Promise.all([
        textPerplexity(client, TEXT, options, SOURCE),
        textPerplexity(inProcess, TEXT, options, SOURCE),
      ]);
      expect(local.scored_tokens).toBeGreaterThan(60);
      // Same windows, same counts: only the log-probabilities travel over HTTP.
      for (const key of [
        'windows',
        'text_tokens',
        'scored_tokens',
        'counts',
        'counts_from',
        'parameters',
      ] as const)
        expect(remote[key], key).toEqual(local[key]);
      expect(remote.tokenizer).toEqual({ ...local.tokenizer, name: 'served' });
      expect(Math.abs(remote.loglikelihood - local.loglikelihood)).toBeLessThan(1e-4);
      expect(Math.abs((remote.token_perplexity as number) - (local.token_perplexity as number))).toBeLessThan(
        1e-4 * (local.token_perplexity as number),
      );
      if (options.mode === 'chunked') {
        expect(local.llama_cpp?.chunks).toBeGreaterThanOrEqual(2);
        expect(remote.llama_cpp?.chunks).toBe(local.llama_cpp?.chunks);
        expect(Math.abs((remote.llama_cpp?.ppl as number) - (local.llama_cpp?.ppl as number))).toBeLessThan(
          1e-4 * (local.llama_cpp?.ppl as number),
        );
      }
    });
  }
});

describe('token windows against a vLLM-shaped server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const backend = (promptLogprobs: boolean | 'auto') =>
    createHttpBackend('local-completions', {
      // The server's /tokenize, named rather than left to lm-eval's default tokenizer_backend=auto.
      tokenizer_backend: 'remote',
      model: 'm',
      base_url: server.completionsUrl,
      tokenized_requests: true,
      prompt_logprobs: promptLogprobs,
      max_length: 24,
    });

  it('reads echo and prompt_logprobs alike, and a window scored from s is the tail of the same window scored from 1', async () => {
    const echo = backend(false);
    const vllm = backend(true);
    try {
      const tokens = await echo.tokenize('one two three, four five six seven eight nine');
      expect(tokens).toHaveLength(10);
      const windows = [
        { tokens, scoreFrom: 1 },
        { tokens, scoreFrom: 6 },
        { tokens: tokens.slice(2, 9), scoreFrom: 3 },
      ];
      const [viaEcho, viaPromptLogprobs] = [
        await echo.scoreTokenWindows({ requests: windows }),
        await vllm.scoreTokenWindows({ requests: windows }),
      ];
      expect(viaPromptLogprobs).toEqual(viaEcho);
      const [whole, tail, inner] = viaEcho as number[][];
      expect(whole).toHaveLength(9);
      expect(tail).toEqual(whole.slice(5));
      expect(inner).toHaveLength(4);
      // The fixture's costs are 0.2–2.2 nats a character: every value is a real, finite log-probability.
      for (const value of whole) expect(value).toBeLessThan(-0.19);
      expect(server.stats.promptLogprobsRequests).toBeGreaterThan(0);
    } finally {
      await echo.close?.();
      await vllm.close?.();
    }
  });

  it('records the vocabulary as unknown, with the reason, when the server does not expose it', async () => {
    const client = backend('auto');
    try {
      const report = await textPerplexity(
        client,
        TEXT,
        { mode: 'strided', maxLength: 16, stride: 16 },
        SOURCE,
      );
      expect(report.tokenizer).toEqual({
        name: 'm',
        vocab_size: null,
        vocab_sha256: null,
        note: "the server has no /tokenizer_info; token counts come from its /tokenize and cannot be matched to another run's tokenizer",
      });
      // S = L: each later window's first token goes unscored, so words and bytes come from /detokenize.
      expect(report.counts_from).toBe('scored spans');
      expect(report.scored_tokens).toBe((report.text_tokens as number) - ((report.windows as number) - 1));
    } finally {
      await client.close?.();
    }
  });

  it('without tokenized_requests, strided stops at planning with the fix', async () => {
    const client = createHttpBackend('local-completions', {
      // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto, tokenized_requests=True).
      tokenized_requests: false,
      model: 'm',
      base_url: server.completionsUrl,
    });
    try {
      expect(client.capabilities.tokenScoring).toBe(false);
      await expect(textPerplexity(client, TEXT, { mode: 'strided' }, SOURCE)).rejects.toThrow(
        /does not declare token-level scoring/,
      );
    } finally {
      await client.close?.();
    }
  });
});
