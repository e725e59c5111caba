/**
 * The perplexity modes against independent recomputations on real llama.cpp models: a generated GGUF
 * (always) and stories260K (when ../shared/models has it).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ControlledEvaluateInputItem, LlamaModel, Token as LlamaToken } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireComponent, sharedFile } from '../../../test/support/require-component.js';
import type { TokenWindow } from '../../models/backend.js';
import { DummyBackend } from '../../models/dummy/dummy-backend.js';
import { DEMO_CORPUS } from '../../models/gguf/demo-corpus.js';
import { GgufBackend } from '../../models/gguf/gguf-backend.js';
import { randomLlamaGguf } from '../../models/gguf/llama-model.js';
import { processLlama } from '../../models/gguf/process-llama.js';
import { writeGguf } from '../../models/gguf/writer.js';
import { scoreTexts } from './score-texts.js';
import { textPerplexity } from './text-perplexity.js';
import { chunkedWindows, stridedWindows } from './windows.js';

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-ppl-'));
const modelPath = path.join(directory, 'random.gguf');
await writeFile(modelPath, writeGguf(randomLlamaGguf({ seed: 23 })));
afterAll(() => rm(directory, { recursive: true, force: true }));

const STORIES = sharedFile('models', 'stories260K.gguf');
const storiesPresent = requireComponent('stories260K', existsSync(STORIES));

/**
 * The independent computation: the same file loaded in this process through node-llama-cpp's own
 * evaluation (not assay's scorer), every window in a fresh context, reading p(next token) from the full
 * softmax at each scored position. No prefix reuse across windows, no window logic shared with the code
 * under test beyond the window list itself. A window is one decode: one token per decode read the same
 * softmax and took 9.4 s against 3.2 s for this file's two comparisons. The softmax is asked for only at
 * the positions whose next token is scored (half of each llama-perplexity chunk is context only).
 */
class PerTokenReference {
  private constructor(private readonly model: LlamaModel) {}

  static async load(file: string): Promise<PerTokenReference> {
    const llama = await processLlama();
    return new PerTokenReference(await llama.loadModel({ modelPath: file }));
  }

  async window(window: TokenWindow): Promise<number[]> {
    const context = await this.model.createContext({
      contextSize: window.tokens.length + 1,
      sequences: 1,
      threads: 1,
      flashAttention: false,
      experimentalKvCacheKeyType: 'F32',
      experimentalKvCacheValueType: 'F32',
    });
    const items: ControlledEvaluateInputItem[] = window.tokens.map((token, position) =>
      position + 1 >= window.scoreFrom && position + 1 < window.tokens.length
        ? [token as LlamaToken, { generateNext: { probabilities: true } }]
        : (token as LlamaToken),
    );
    const outputs = await context.getSequence().controlledEvaluate(items);
    const logprobs: number[] = [];
    for (let position = window.scoreFrom - 1; position + 1 < window.tokens.length; position++) {
      const next = window.tokens[position + 1] as LlamaToken;
      logprobs.push(Math.log(outputs[position]?.next.probabilities?.get(next) ?? 0));
    }
    await context.dispose();
    return logprobs;
  }

  async close(): Promise<void> {
    await this.model.dispose();
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

const TEXT =
  'The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs!\nHow vexingly quick daft zebras jump; sphinx of black quartz, judge my vow.';

describe('strided on a generated GGUF', () => {
  let backend: GgufBackend;
  let reference: PerTokenReference;
  beforeAll(async () => {
    backend = await GgufBackend.create({ modelPath, threads: 1, sequences: 3, nCtx: 256 });
    reference = await PerTokenReference.load(modelPath);
  });
  afterAll(async () => {
    await backend?.close();
    await reference?.close();
  });

  it('equals an independent per-token computation over the same windows (1e-6 relative)', async () => {
    const tokenizer = await backend.tokenizerInfo();
    const tokens = await backend.tokenize(TEXT);
    expect(tokens.length).toBeGreaterThan(100);
    for (const [maxLength, stride] of [
      [32, 8],
      [40, 40],
      [17, 5],
    ]) {
      const laid = stridedWindows(tokens, tokenizer.prefixToken, maxLength, stride);
      const [result] = await scoreTexts(
        backend,
        [TEXT],
        { mode: 'strided', source: 'cli', maxLength, stride },
        tokenizer,
      );
      let expected = 0;
      let count = 0;
      for (const window of laid.windows) {
        const logprobs = await reference.window(window);
        expected += sum(logprobs);
        count += logprobs.length;
      }
      expect(result.scoredTokens).toBe(count);
      expect(count).toBe(laid.scoredPositions.length);
      // Overlapping windows score every text token; with S = L, as in HF's loop, each later window's
      // first token has no context inside its window and goes unscored.
      const scored = new Set(laid.scoredPositions);
      const unscored = tokens.map((_, i) => i + 1).filter((position) => !scored.has(position));
      const multiples = tokens.map((_, i) => i + 1).filter((position) => position % maxLength === 0);
      expect(unscored).toEqual(stride < maxLength ? [] : multiples);
      expect(relative(result.logprob, expected)).toBeLessThan(1e-6);
      const report = await textPerplexity(
        backend,
        TEXT,
        { mode: 'strided', maxLength, stride },
        { file: 'text', sha256: '' },
      );
      expect(relative(report.token_perplexity as number, Math.exp(-expected / count))).toBeLessThan(1e-6);
    }
  });

  it('with stride = max_length = the text length, strided equals rolling', async () => {
    const tokens = await backend.tokenize(TEXT);
    // The strided sequence is [prefix token, …text]: its length is the text's tokens + 1.
    const length = tokens.length + 1;
    const strided = await textPerplexity(
      backend,
      TEXT,
      { mode: 'strided', maxLength: length, stride: length },
      { file: 'text', sha256: '' },
    );
    const rolling = await textPerplexity(backend, TEXT, { mode: 'rolling' }, { file: 'text', sha256: '' });
    expect(strided.windows).toBe(1);
    expect(strided.scored_tokens).toBe(tokens.length);
    expect(rolling.scored_tokens).toBe(tokens.length);
    expect(relative(strided.loglikelihood, rolling.loglikelihood)).toBeLessThan(1e-6);
    expect(relative(strided.bits_per_byte as number, rolling.bits_per_byte as number)).toBeLessThan(1e-6);
  });

  it('names the tokenizer: GGUF tokenizer model, vocab size, vocab sha256', async () => {
    const info = await backend.tokenizerInfo();
    expect(info.name).toBe('gguf:llama');
    expect(info.vocabSize).toBe(backend.info().vocabSize);
    expect(info.vocabSha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('a backend without token-level scoring', () => {
  it('fails strided and chunked at planning, and still runs rolling', async () => {
    const dummy = new DummyBackend({});
    for (const mode of ['strided', 'chunked'] as const) {
      await expect(textPerplexity(dummy, TEXT, { mode }, { file: 'text', sha256: '' })).rejects.toThrow(
        /perplexity mode .* model dummy does not declare token-level scoring/,
      );
    }
    const rolling = await textPerplexity(dummy, TEXT, { mode: 'rolling' }, { file: 'text', sha256: '' });
    expect(rolling.tokenizer).toBeNull();
    expect(rolling.token_perplexity).toBeNull();
    expect(Number.isFinite(rolling.bits_per_byte)).toBe(true);
  });
});

describe.skipIf(!storiesPresent)('chunked on stories260K (llama-perplexity)', () => {
  let backend: GgufBackend;
  let reference: PerTokenReference;
  beforeAll(async () => {
    backend = await GgufBackend.create({ modelPath: STORIES, threads: 1, sequences: 2, nCtx: 128 });
    reference = await PerTokenReference.load(STORIES);
  });
  afterAll(async () => {
    await backend?.close();
    await reference?.close();
  });

  it("uses llama-perplexity's chunks and scored positions, and its PPL matches a per-token recomputation", async () => {
    const text = `${DEMO_CORPUS}\n${DEMO_CORPUS}`;
    const tokenizer = await backend.tokenizerInfo();
    const tokens = await backend.tokenize(text);
    expect(tokenizer.addBos).toBe(true);
    // llama-perplexity tokenizes with BOS (common_tokenize(ctx, prompt, true)), so chunks cover [BOS, …tokens].
    const sequence = [tokenizer.bos as number, ...tokens];
    const chunks = Math.floor(sequence.length / 128);
    expect(chunks).toBeGreaterThanOrEqual(4);
    const laid = chunkedWindows(tokens, {
      nCtx: 128,
      bos: tokenizer.bos,
      addBos: true,
      requireTwoChunks: true,
    });
    expect(laid.windows.length).toBe(chunks);
    laid.windows.forEach((window, chunk) => {
      // BOS replaces each chunk's first token; the rest is the sequence, n_ctx tokens per chunk.
      expect(window.tokens).toEqual([tokenizer.bos, ...sequence.slice(chunk * 128 + 1, (chunk + 1) * 128)]);
      // first = n_ctx/2 = 64: tokens 65 … 127 are scored, n_ctx − 1 − first = 63 per chunk.
      expect(window.scoreFrom).toBe(65);
    });
    expect(laid.scoredPositions.length).toBe(chunks * 63);

    const report = await textPerplexity(backend, text, { mode: 'chunked' }, { file: 'text', sha256: '' });
    expect(report.parameters).toEqual({
      n_ctx: 128,
      scored_positions: '65..127 of each chunk',
      bos_at_chunk_start: true,
    });
    expect(report.scored_tokens).toBe(chunks * 63);
    const nlls: number[] = [];
    for (const window of laid.windows) nlls.push(...(await reference.window(window)).map((value) => -value));
    const mean = sum(nlls) / nlls.length;
    const ppl = Math.exp(mean);
    const variance = sum(nlls.map((v) => v * v)) / nlls.length - mean * mean;
    expect(relative(report.llama_cpp?.ppl as number, ppl)).toBeLessThan(1e-6);
    expect(
      relative(report.llama_cpp?.ppl_stderr as number, Math.sqrt(variance / (nlls.length - 1)) * ppl),
    ).toBeLessThan(1e-4);
    expect(report.token_perplexity).toBeCloseTo(report.llama_cpp?.ppl as number, 10);
    // Only half of each chunk is scored: words and bytes come from the detokenized scored spans.
    expect(report.counts_from).toBe('scored spans');
    expect(report.counts.bytes).toBeLessThan(Buffer.byteLength(text));
  });
});
