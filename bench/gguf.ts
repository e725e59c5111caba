/**
 * gguf backend figures (issue 3), each a ratio measured in one run on the same model and threads:
 * 1. HellaSwag-shaped multiple choice: prefix sharing vs evaluating each choice's full context alone.
 * 2. Perplexity on a 32K-vocabulary model: scored tokens/s vs raw prompt processing without logits.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getLlama, LlamaLogLevel, type Token } from 'node-llama-cpp';
import { GgufBackend } from '../src/models/gguf/gguf-backend.js';
import {
  asciiCharPieces,
  buildSpmVocab,
  randomLlamaGguf,
  type SpmVocab,
  seededRandom,
} from '../src/models/gguf/llama-model.js';
import { loadNativeAddon } from '../src/models/gguf/native-scorer.js';
import { writeGguf } from '../src/models/gguf/writer.js';

export async function ggufFigures(report: (line: string) => void): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-gguf-'));
  try {
    await multipleChoice(report, await characterModel(work), 'character-level llama, n_embd 256, 4 layers');
    const tiny = path.resolve(process.cwd(), '..', 'shared', 'models', 'llama-2-tiny-random.gguf');
    if (existsSync(tiny))
      await perplexity(report, tiny, 'llama-2-tiny-random (32K vocab, n_embd 8, 1 layer)');
    else
      report(
        'gguf perplexity on llama-2-tiny-random: skipped (../shared/models/llama-2-tiny-random.gguf is absent)',
      );
    // The toy model above does almost no work outside its output layer; this one has a small model's shape.
    const started = performance.now();
    const realistic = await realisticModel(work);
    const built = (performance.now() - started) / 1000;
    const label = `generated llama (32K vocab, n_embd ${REALISTIC.embeddingLength}, ${REALISTIC.blockCount} layers, n_ff ${REALISTIC.feedForwardLength}, F32, built in ${built.toFixed(1)} s)`;
    await perplexity(report, realistic, label);
    await multipleChoice(report, realistic, label);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A character-level llama with 4 blocks of width 256: one token per character, so lengths are exact. */
async function characterModel(work: string): Promise<string> {
  const modelPath = path.join(work, 'mc.gguf');
  await writeFile(
    modelPath,
    writeGguf(
      randomLlamaGguf({
        seed: 5,
        embeddingLength: 256,
        blockCount: 4,
        feedForwardLength: 512,
        headCount: 8,
        headCountKv: 8,
        contextLength: 512,
      }),
    ),
  );
  return modelPath;
}

const REALISTIC = {
  embeddingLength: 384,
  blockCount: 6,
  feedForwardLength: 1024,
  headCount: 6,
  headCountKv: 6,
};

/**
 * A 32,000-token vocabulary: the byte and control tokens, printable ASCII, then lowercase 2- and
 * 3-letter pieces with and without the ▁ word mark (earlier pieces score higher, so SPM merges short
 * pieces first), cut at 32,000 like Llama 2's.
 */
function vocab32k(): SpmVocab {
  const pieces = asciiCharPieces();
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const grams: string[] = [];
  for (const a of letters) grams.push(`▁${a}`);
  for (const a of letters) for (const b of letters) grams.push(a + b, `▁${a}${b}`);
  for (const a of letters)
    for (const b of letters) for (const c of letters) grams.push(a + b + c, `▁${a}${b}${c}`);
  const room = 32_000 - 259 - pieces.length;
  grams.slice(0, room).forEach((piece, index) => {
    pieces.push({ piece, score: -1 - index });
  });
  return buildSpmVocab(pieces);
}

async function realisticModel(work: string): Promise<string> {
  const modelPath = path.join(work, 'realistic.gguf');
  await writeFile(
    modelPath,
    writeGguf(randomLlamaGguf({ seed: 11, contextLength: 1024, vocab: vocab32k(), ...REALISTIC })),
  );
  return modelPath;
}

async function multipleChoice(
  report: (line: string) => void,
  modelPath: string,
  label: string,
): Promise<void> {
  const random = seededRandom(9);
  const text = (length: number) =>
    Array.from({ length }, () => 'abcdefghijklmnopqrstuvwxyz '[Math.floor(random() * 27)]).join('');
  const requests = [];
  for (let question = 0; question < 24; question++) {
    const context = text(80);
    for (let choice = 0; choice < 4; choice++) requests.push({ context, continuation: ` ${text(19)}` });
  }
  // One thread: on this shared 2-core machine, 2 ggml threads made every decode 100× slower (spin barriers
  // under load), which would measure contention, not scheduling.
  const threads = 1;
  const time = async (prefixSharing: boolean) => {
    const backend = await GgufBackend.create({ modelPath, threads, prefixSharing, nCtx: 256 });
    try {
      await backend.loglikelihood(requests.slice(0, 4)); // warm-up
      const times: number[] = [];
      let results: Awaited<ReturnType<typeof backend.loglikelihood>> = [];
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        results = await backend.loglikelihood(requests);
        times.push(performance.now() - start);
      }
      return { ms: median(times), results };
    } finally {
      await backend.close();
    }
  };
  const shared = await time(true);
  const alone = await time(false);
  const maxDiff = Math.max(
    ...shared.results.map((result, i) => Math.abs(result.logprob - alone.results[i].logprob)),
  );
  report(
    `gguf multiple choice, ${label} (24 questions × 4 endings, 80-character context, 20-character endings, ${threads} threads): prefix sharing ${shared.ms.toFixed(0)} ms vs full context per choice ${alone.ms.toFixed(0)} ms = ${(alone.ms / shared.ms).toFixed(2)}× (target ≥ 2.5×); max |Δ logprob| ${maxDiff.toExponential(1)}`,
  );
}

async function perplexity(report: (line: string) => void, modelPath: string, label: string): Promise<void> {
  const threads = os.availableParallelism();
  const words =
    'the cat sat on a mat and then it ran to the park where many children played games all day'.split(' ');
  const random = seededRandom(3);
  const text = Array.from({ length: 700 }, () => words[Math.floor(random() * words.length)]).join(' ');

  // Scored: lm-eval rolling windows of 512 tokens through the backend (IPC, tokenization, scheduling
  // included), on the native scorer and, over the first 128 tokens only (it is ~100× slower), on the
  // probabilities Map. Each after a warm-up call.
  const scoreWith = async (scorer: 'native' | 'map', scoredText: string) => {
    const backend = await GgufBackend.create({ modelPath, threads, nCtx: 512, sequences: 1, scorer });
    try {
      await backend.loglikelihoodRolling([{ text: 'a short warm-up text' }]);
      const count = (await backend.tokenize(scoredText)).length;
      const times: number[] = [];
      for (let run = 0; run < (scorer === 'map' ? 1 : 5); run++) {
        const start = performance.now();
        await backend.loglikelihoodRolling([{ text: scoredText }]);
        times.push(performance.now() - start);
      }
      return { rate: count / (median(times) / 1000), count, path: backend.info().scorer };
    } finally {
      await backend.close();
    }
  };
  const native = await scoreWith('auto', text);

  // Raw prompt processing: the same tokens in 512-token windows, no logits requested, after a warm-up
  // pass (the first decode of a context allocates its compute buffers).
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    logLevel: LlamaLogLevel.error,
    maxThreads: threads,
  });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({
    contextSize: 513,
    sequences: 1,
    threads,
    flashAttention: false,
    experimentalKvCacheKeyType: 'F32',
    experimentalKvCacheValueType: 'F32',
  });
  const sequence = context.getSequence();
  const tokens = model.tokenize(text, false) as Token[];
  const rawPass = async () => {
    const start = performance.now();
    for (let offset = 0; offset < tokens.length; offset += 512) {
      await sequence.clearHistory();
      await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(offset, offset + 512));
    }
    return performance.now() - start;
  };
  // A pass takes a few milliseconds, so one pass measures scheduler noise: the median of 25.
  await rawPass();
  const rawTimes: number[] = [];
  for (let run = 0; run < 25; run++) rawTimes.push(await rawPass());
  const rawMs = median(rawTimes);
  const mapText = model.detokenize(tokens.slice(0, 128));
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  const map = await scoreWith('map', mapText);
  const rawRate = tokens.length / (rawMs / 1000);
  const direct = directRawRate(modelPath, tokens, threads);
  report(
    `gguf perplexity, ${label} (${native.count} tokens, ${threads} threads): ` +
      `scored ${native.rate.toFixed(0)} tok/s on the ${native.path.path} scorer vs raw prompt processing ` +
      `${rawRate.toFixed(0)} tok/s = ratio ${(native.rate / rawRate).toFixed(3)} (target ≥ 0.5); ` +
      `probabilities Map ${map.rate.toFixed(0)} tok/s = ratio ${(map.rate / rawRate).toFixed(3)}` +
      (direct
        ? `; llama_decode alone without outputs (the addon, no node-llama-cpp call overhead) ${direct.toFixed(0)} tok/s = ratio ${(native.rate / direct).toFixed(3)}`
        : ''),
  );
}

/**
 * Raw prompt processing measured below node-llama-cpp: the same windows through the native addon's
 * llama_decode with no outputs requested (median of 25 passes). Undefined when the addon is absent.
 */
function directRawRate(modelPath: string, tokens: number[], threads: number): number | undefined {
  const loaded = loadNativeAddon();
  if (!loaded.addon) return undefined;
  const addon = loaded.addon;
  const handle = addon.open(modelPath, {
    nCtx: 513,
    batchSize: 512,
    sequences: 1,
    threads,
    flashAttention: false,
    kvF32: true,
    gpuLayers: 0,
    backendDir: loaded.bins,
  });
  try {
    const pass = () => {
      const start = performance.now();
      for (let offset = 0; offset < tokens.length; offset += 512) {
        const window = Int32Array.from(tokens.slice(offset, offset + 512));
        const none = new Int32Array(window.length).fill(-1);
        addon.score(
          handle,
          window,
          Int32Array.from(window, (_, i) => i),
          new Uint32Array(window.length).fill(1),
          none,
          new Int32Array(0),
          new Int32Array(0),
        );
        addon.clear(handle);
      }
      return performance.now() - start;
    };
    pass();
    const times = Array.from({ length: 25 }, pass);
    return tokens.length / (median(times) / 1000);
  } finally {
    addon.close(handle);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
