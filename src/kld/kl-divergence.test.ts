import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ControlledEvaluateInputItem, Token } from 'node-llama-cpp';
import { afterAll, describe, expect, it } from 'vitest';
import { requireComponent } from '../../test/support/require-component.js';
import { AssayError } from '../errors.js';
import { chunkedWindows } from '../evaluate/perplexity/windows.js';
import { compareModels } from '../models/gguf/distributions.js';
import { asciiCharPieces, buildSpmVocab, randomLlamaGguf } from '../models/gguf/llama-model.js';
import { loadNativeAddon } from '../models/gguf/native-scorer.js';
import { processLlama } from '../models/gguf/process-llama.js';
import { writeGguf } from '../models/gguf/writer.js';
import { klDivergence } from './kl-divergence.js';
import { distribution, meanAndError, percentile } from './statistics.js';

const native = loadNativeAddon();
const nativeScorer = requireComponent('native scorer', native.addon !== undefined);
const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-kld-'));
const basePath = path.join(directory, 'base-f32.gguf');
const halfPath = path.join(directory, 'base-f16.gguf');
const otherPath = path.join(directory, 'other.gguf');
const file = randomLlamaGguf({ seed: 41 });
await writeFile(basePath, writeGguf(file));
// The same weights with every matrix stored as F16: a "quantization" that moves logits a little.
await writeFile(
  halfPath,
  writeGguf({
    ...file,
    tensors: file.tensors.map((tensor) =>
      tensor.dims.length === 2 ? { ...tensor, type: 'F16' as const } : tensor,
    ),
  }),
);
await writeFile(otherPath, writeGguf(randomLlamaGguf({ seed: 42 })));
// Another token space: the same architecture over fewer pieces.
const otherVocabPath = path.join(directory, 'other-vocab.gguf');
await writeFile(
  otherVocabPath,
  writeGguf(randomLlamaGguf({ seed: 41, vocab: buildSpmVocab(asciiCharPieces().slice(0, 40)) })),
);
// A GGUF cut short: its tensors do not fit in the file.
const truncatedPath = path.join(directory, 'truncated.gguf');
const whole = writeGguf(file);
await writeFile(truncatedPath, whole.subarray(0, Math.floor(whole.length / 2)));
afterAll(() => rm(directory, { recursive: true, force: true }));

const TEXT =
  'It was a bright cold day in April, and the clocks were striking thirteen. Winston Smith, his chin nuzzled into his breast, slipped quickly through the glass doors.';

describe('kld statistics', () => {
  it('means, standard errors and percentiles', () => {
    expect(meanAndError([1, 2, 3, 4])).toEqual({ value: 2.5, stderr: Math.sqrt(5 / 3 / 4) });
    expect(percentile([0, 10], 0.25)).toBe(2.5);
    const summary = distribution([4, 1, 3, 2, 0]);
    expect(summary).toMatchObject({ mean: 2, max: 4, median: 2, min: 0, p90: 3.6, p10: 0.4 });
  });
});

describe.skipIf(!nativeScorer)(
  `assay kld on generated GGUFs${native.addon ? '' : ` (skipped: ${native.addon === undefined ? native.reason : ''})`}`,
  () => {
    it('a model against itself: KL 0 everywhere, same top token always, PPL ratio 1', async () => {
      const report = await klDivergence({ basePath, modelPath: basePath, text: TEXT, nCtx: 32, threads: 1 });
      expect(report.chunks).toBe(5);
      expect(report.tokens).toBe(5 * 15);
      expect(report.kl_divergence).toMatchObject({ mean: 0, max: 0, min: 0 });
      expect(report.same_top).toEqual({ value: 1, stderr: 0 });
      expect(report.perplexity.ratio).toEqual({ value: 1, stderr: 0 });
      expect(report.perplexity.base).toEqual(report.perplexity.model);
    });

    it('F32 vs F16 weights: small positive KL; a different model: large KL and PPL ratio', async () => {
      const half = await klDivergence({ basePath, modelPath: halfPath, text: TEXT, nCtx: 32, threads: 1 });
      const other = await klDivergence({ basePath, modelPath: otherPath, text: TEXT, nCtx: 32, threads: 1 });
      expect(half.kl_divergence.mean).toBeGreaterThan(0);
      expect(half.kl_divergence.mean).toBeLessThan(1e-3);
      expect(half.same_top.value).toBeGreaterThan(0.9);
      expect(Math.abs(half.perplexity.ratio.value - 1)).toBeLessThan(0.01);
      expect(other.kl_divergence.mean).toBeGreaterThan(100 * half.kl_divergence.mean);
      expect(other.same_top.value).toBeLessThan(half.same_top.value);
      // The ratio is the ratio of the two perplexities.
      expect(other.perplexity.ratio.value).toBeCloseTo(
        other.perplexity.model.value / other.perplexity.base.value,
        8,
      );
    });

    it('per-token KL, same-top and log-probabilities equal an independent JS computation from node-llama-cpp’s probabilities', async () => {
      const llama = await processLlama();
      const baseModel = await llama.loadModel({ modelPath: basePath });
      const halfModel = await llama.loadModel({ modelPath: halfPath });
      const tokens = [...baseModel.tokenize(TEXT, false)] as number[];
      const layout = chunkedWindows(tokens, { nCtx: 32, bos: 1, addBos: true, requireTwoChunks: false });
      const positions = compareModels(
        native.addon as NonNullable<typeof native.addon>,
        basePath,
        halfPath,
        layout.windows,
        {
          nCtx: 32,
          threads: 1,
        },
      );
      const distributions = async (
        model: typeof baseModel,
        window: { tokens: number[]; scoreFrom: number },
      ) => {
        const context = await model.createContext({
          contextSize: 64,
          sequences: 1,
          threads: 1,
          flashAttention: false,
          experimentalKvCacheKeyType: 'F32',
          experimentalKvCacheValueType: 'F32',
        });
        const items: ControlledEvaluateInputItem[] = window.tokens.map((token, p) =>
          p >= window.scoreFrom - 1 && p < window.tokens.length - 1
            ? [token as Token, { generateNext: { probabilities: true } }]
            : (token as Token),
        );
        const outputs = await context.getSequence().controlledEvaluate(items);
        await context.dispose();
        return outputs.flatMap((output) => (output?.next.probabilities ? [output.next.probabilities] : []));
      };
      let at = 0;
      for (const window of layout.windows) {
        const [p, q] = [await distributions(baseModel, window), await distributions(halfModel, window)];
        for (let i = 0; i < p.length; i++, at++) {
          let kl = 0;
          for (const [token, probability] of p[i]) {
            if (probability > 0) kl += probability * (Math.log(probability) - Math.log(q[i].get(token) ?? 0));
          }
          const target = window.tokens[window.scoreFrom + i] as Token;
          expect(Math.abs(positions.kl[at] - kl)).toBeLessThan(1e-5 + 1e-3 * kl);
          expect(positions.sameTop[at]).toBe(p[i].keys().next().value === q[i].keys().next().value);
          expect(Math.abs(positions.baseLogprobs[at] - Math.log(p[i].get(target) ?? 0))).toBeLessThan(1e-4);
          expect(Math.abs(positions.modelLogprobs[at] - Math.log(q[i].get(target) ?? 0))).toBeLessThan(1e-4);
        }
      }
      expect(at).toBe(positions.kl.length);
      await baseModel.dispose();
      await halfModel.dispose();
    });

    it('errors from the engine process keep their code and file: other vocabularies, a cut file', async () => {
      const caught = async (modelPath: string) =>
        klDivergence({ basePath, modelPath, text: TEXT, nCtx: 32, threads: 1 }).then(
          () => undefined,
          (error: unknown) => error,
        );
      const vocabulary = await caught(otherVocabPath);
      expect(vocabulary).toBeInstanceOf(AssayError);
      expect((vocabulary as AssayError).code).toBe('incompatible_models');
      expect((vocabulary as AssayError).message).toMatch(/^the models have different vocabularies \(/);
      const cut = await caught(truncatedPath);
      expect(cut).toBeInstanceOf(AssayError);
      expect((cut as AssayError).code).toBe('bad_model_file');
      expect((cut as AssayError).location.file).toBe(truncatedPath);
    });

    it('refuses a text shorter than one chunk', async () => {
      await expect(
        klDivergence({ basePath, modelPath: basePath, text: 'too short', nCtx: 32 }),
      ).rejects.toThrow(/fewer than one chunk of n_ctx=32/);
    });
  },
);
