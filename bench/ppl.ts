/**
 * Perplexity figures (issue 8): tokens scored per second in each mode (rolling, strided, chunked) on a
 * 32K-vocabulary model, as a ratio to the engine's raw prompt processing of the same tokens with no
 * logits requested, measured in the same run with the same threads and context size.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getLlama, LlamaLogLevel, type Token } from 'node-llama-cpp';
import type { PerplexityOptions } from '../src/evaluate/perplexity/settings.js';
import { textPerplexity } from '../src/evaluate/perplexity/text-perplexity.js';
import { GgufBackend } from '../src/models/gguf/gguf-backend.js';
import { seededRandom } from '../src/models/gguf/llama-model.js';
import { median } from './median.js';

const N_CTX = 128;

export async function runPerplexityBench(report: (line: string) => void): Promise<void> {
  const modelPath = path.resolve(process.cwd(), '..', 'shared', 'models', 'llama-2-tiny-random.gguf');
  if (!existsSync(modelPath)) {
    report(
      'perplexity modes on a 32K-vocabulary model: skipped (../shared/models/llama-2-tiny-random.gguf is absent)',
    );
    return;
  }
  const threads = os.availableParallelism();
  const words =
    'the cat sat on a mat and then it ran to the park where many children played games all day'.split(' ');
  const random = seededRandom(8);
  const text = Array.from({ length: 520 }, () => words[Math.floor(random() * words.length)]).join(' ');

  const raw = await rawPromptProcessing(modelPath, text, threads);
  const backend = await GgufBackend.create({ modelPath, threads, nCtx: N_CTX, sequences: 4 });
  try {
    const modes: Array<[string, PerplexityOptions]> = [
      ['rolling', { mode: 'rolling' }],
      [`strided L=${N_CTX} S=${N_CTX / 2}`, { mode: 'strided', maxLength: N_CTX, stride: N_CTX / 2 }],
      [`chunked n_ctx=${N_CTX}`, { mode: 'chunked', maxLength: N_CTX }],
    ];
    // A pass takes milliseconds here, so one pass measures scheduler noise: 25 rounds, each a raw pass
    // then every mode, medians of each (after a warm-up round), so a change in machine load reaches the
    // baseline and the modes alike. Before each pass a pause lets the other engine's ggml threads,
    // which poll for a while after a decode, go to sleep: on 2 cores they slowed the next pass.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
    const measure = async () => {
      await pause();
      const times = [await raw.pass()];
      const results = [];
      for (const [, options] of modes) {
        await pause();
        results.push(await textPerplexity(backend, text, options, { file: 'bench', sha256: '' }));
      }
      return { times, results };
    };
    await measure();
    const rounds = await (async () => {
      const all = [];
      for (let round = 0; round < 25; round++) all.push(await measure());
      return all;
    })();
    const rawRate = raw.tokens / median(rounds.map((round) => round.times[0]));
    modes.forEach(([label], i) => {
      const result = rounds[0].results[i];
      const rate = (result.scored_tokens ?? 0) / median(rounds.map((round) => round.results[i].seconds));
      report(
        `perplexity ${label}, llama-2-tiny-random (32K vocab, ${result.text_tokens} tokens, ${result.scored_tokens} scored, ${threads} threads, medians of 25 interleaved rounds): ${rate.toFixed(0)} scored tok/s vs raw prompt processing ${rawRate.toFixed(0)} tok/s = ratio ${(rate / rawRate).toFixed(3)}`,
      );
    });
  } finally {
    await backend.close();
    await raw.close();
  }
}

/** The same text in n_ctx windows, decoded with no logits requested: the engine's ceiling. */
async function rawPromptProcessing(
  modelPath: string,
  text: string,
  threads: number,
): Promise<{ tokens: number; pass: () => Promise<number>; close: () => Promise<void> }> {
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    logLevel: LlamaLogLevel.error,
    maxThreads: threads,
  });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({
    contextSize: N_CTX + 1,
    sequences: 1,
    threads,
    flashAttention: false,
    experimentalKvCacheKeyType: 'F32',
    experimentalKvCacheValueType: 'F32',
  });
  const sequence = context.getSequence();
  const tokens = model.tokenize(text, false) as Token[];
  const pass = async () => {
    const start = performance.now();
    for (let offset = 0; offset < tokens.length; offset += N_CTX) {
      await sequence.clearHistory();
      await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(offset, offset + N_CTX));
    }
    return (performance.now() - start) / 1000;
  };
  return {
    tokens: tokens.length,
    pass,
    close: async () => {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
