/**
 * gguf backend figures (issue 3), each a ratio measured in one run on the same model and threads:
 * 1. HellaSwag-shaped multiple choice: prefix sharing vs evaluating each choice's full context alone.
 * 2. Perplexity on a 32K-vocabulary model: scored tokens/s vs raw prompt processing without logits.
 */
import { existsSync, statSync } from 'node:fs';
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
import { median } from './median.js';

export async function ggufFigures(report: (line: string) => void): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-gguf-'));
  try {
    await multipleChoice(
      report,
      await characterModel(work),
      'character-level llama, n_embd 256, 4 layers',
      24,
      'character',
    );
    const tiny = path.resolve(process.cwd(), '..', 'shared', 'models', 'llama-2-tiny-random.gguf');
    if (existsSync(tiny))
      await perplexity(report, tiny, 'llama-2-tiny-random (32K vocab, n_embd 8, 1 layer)');
    else
      report(
        'gguf perplexity on llama-2-tiny-random: skipped (../shared/models/llama-2-tiny-random.gguf is absent)',
      );
    // The toy model above does almost no work outside its output layer; these have small real models'
    // shapes, the second that of llama2.c's stories110M (Llama 2's 32K vocabulary).
    for (const shape of [SMALL, STORIES_110M]) {
      const started = performance.now();
      const modelPath = await shapedModel(work, shape);
      const built = (performance.now() - started) / 1000;
      const label = `generated llama (32K vocab, n_embd ${shape.embeddingLength}, ${shape.blockCount} layers, n_ff ${shape.feedForwardLength}, F32, built in ${built.toFixed(1)} s)`;
      await perplexity(report, modelPath, label);
      await multipleChoice(report, modelPath, label, shape === SMALL ? 24 : 8, 'word');
      await rm(modelPath, { force: true });
    }
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

interface Shape {
  embeddingLength: number;
  blockCount: number;
  feedForwardLength: number;
  headCount: number;
  headCountKv: number;
}

const SMALL: Shape = {
  embeddingLength: 384,
  blockCount: 6,
  feedForwardLength: 1024,
  headCount: 6,
  headCountKv: 6,
};

/** llama2.c's stories110M: dim 768, 12 layers, 12 heads, hidden 2048. */
const STORIES_110M: Shape = {
  embeddingLength: 768,
  blockCount: 12,
  feedForwardLength: 2048,
  headCount: 12,
  headCountKv: 12,
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

async function shapedModel(work: string, shape: Shape): Promise<string> {
  const modelPath = path.join(work, `llama-${shape.embeddingLength}x${shape.blockCount}.gguf`);
  await writeFile(
    modelPath,
    writeGguf(randomLlamaGguf({ seed: 11, contextLength: 1024, vocab: vocab32k(), ...shape })),
  );
  return modelPath;
}

/**
 * HellaSwag-shaped multiple choice: questions of an 80-token context and 4 endings of 20 tokens
 * (a leading space, as lm-eval's continuations have), timed under three schedules of the same
 * backend: the default (shared context, batched across sequences), each choice's full context on its
 * own evaluation (the baseline), and full contexts batched across sequences without sharing.
 */
async function multipleChoice(
  report: (line: string) => void,
  modelPath: string,
  label: string,
  questions: number,
  /** What one token is: a character (character-level model) or a word of ▁ + 3 letters (vocab32k). */
  token: 'character' | 'word',
): Promise<void> {
  const random = seededRandom(9);
  const characterLevel = token === 'character';
  const unit = () =>
    characterLevel
      ? 'abcdefghijklmnopqrstuvwxyz '[Math.floor(random() * 27)]
      : ` ${Array.from({ length: 3 }, () => 'abcdefghijklmnopqrst'[Math.floor(random() * 20)]).join('')}`;
  const text = (units: number) => Array.from({ length: units }, unit).join('');
  const requests = [];
  for (let question = 0; question < questions; question++) {
    const context = text(80).trimStart();
    for (let choice = 0; choice < 4; choice++)
      requests.push({ context, continuation: characterLevel ? ` ${text(19)}` : text(20) });
  }
  // One thread: on this shared 2-core machine, 2 ggml threads made every decode 100× slower (spin barriers
  // under load), which would measure contention, not scheduling.
  const threads = 1;
  // The three backends are open together and their runs alternate, so a change in machine load
  // during the measurement reaches all three alike. Median of 3 runs each, after a warm-up.
  const schedules = ['shared', 'alone', 'packed'] as const;
  const backends = await Promise.all(
    schedules.map((schedule) => GgufBackend.create({ modelPath, threads, schedule, nCtx: 256 })),
  );
  type Results = Awaited<ReturnType<GgufBackend['loglikelihood']>>;
  const times: number[][] = schedules.map(() => []);
  const outcomes: Results[] = [];
  let tokens = { context: 0, continuation: 0 };
  try {
    const context = await backends[0].tokenize(requests[0].context);
    const full = await backends[0].tokenize(requests[0].context + requests[0].continuation);
    tokens = { context: context.length, continuation: full.length - context.length };
    for (const backend of backends) await backend.loglikelihood({ requests: requests.slice(0, 4) });
    for (let run = 0; run < 3; run++) {
      for (const [i, backend] of backends.entries()) {
        const start = performance.now();
        outcomes[i] = await backend.loglikelihood({ requests });
        times[i].push(performance.now() - start);
      }
    }
  } finally {
    await Promise.all(backends.map((backend) => backend.close()));
  }
  const [shared, alone, packed] = schedules.map((_, i) => ({ ms: median(times[i]), results: outcomes[i] }));
  const maxDiff = Math.max(
    ...shared.results.flatMap((result, i) => [
      Math.abs(result.logprob - alone.results[i].logprob),
      Math.abs(result.logprob - packed.results[i].logprob),
    ]),
  );
  report(
    `gguf multiple choice, ${label} (${questions} questions × 4 endings, ${tokens.context}-token context without BOS, ${tokens.continuation}-token endings, ${threads} thread): ` +
      `prefix sharing ${shared.ms.toFixed(0)} ms vs each choice's full context on its own ${alone.ms.toFixed(0)} ms = ${(alone.ms / shared.ms).toFixed(2)}× (target ≥ 2.5×); ` +
      `vs full contexts batched across sequences ${packed.ms.toFixed(0)} ms = ${(packed.ms / shared.ms).toFixed(2)}×; max |Δ logprob| ${maxDiff.toExponential(1)}`,
  );
}

async function perplexity(report: (line: string) => void, modelPath: string, label: string): Promise<void> {
  const threads = os.availableParallelism();
  const words =
    'the cat sat on a mat and then it ran to the park where many children played games all day'.split(' ');
  const random = seededRandom(3);
  const all = Array.from({ length: 3000 }, () => words[Math.floor(random() * words.length)]);
  // The longest prefix of the words that fits two 512-token windows: lm-eval's last rolling window is
  // filled up with already-scored context, so a text just past a window boundary would decode most of
  // a window again to score a few tokens, a cost that vanishes on long documents.
  const sizing = await GgufBackend.create({ modelPath, threads, nCtx: 512, sequences: 1 });
  let fits = 1;
  let over = all.length;
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if ((await sizing.tokenize(all.slice(0, middle).join(' '))).length <= 1024) fits = middle;
    else over = middle;
  }
  await sizing.close();
  const text = all.slice(0, fits).join(' ');

  // Four measurements over the same tokens, open together, their passes alternating so that a change
  // in machine load reaches all alike (median of 25 passes, of 5 on models over 256 MiB where a pass
  // takes seconds; each after a warm-up, as the first decode of a context allocates its buffers):
  // - scored: lm-eval rolling windows of 512 tokens through the backend on the native scorer (IPC,
  //   tokenization and scheduling included);
  // - raw: node-llama-cpp evaluating the same tokens in 512-token windows with no logits requested;
  // - llama_decode through the addon, with no outputs and with every position's logits but no scoring.
  const passes = statSync(modelPath).size > 256 * 1024 * 1024 ? 5 : 25;
  const backend = await GgufBackend.create({ modelPath, threads, nCtx: 512, sequences: 1 });
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
  const mapText = model.detokenize(tokens.slice(0, 128));
  const engine = openEngine(modelPath, threads);
  const timed = async (pass: () => unknown) => {
    // ggml's worker threads poll for a while after a decode; on 2 cores the next engine's pass would
    // share them with the previous one's spinning threads (millisecond passes of the tiny model ran 3×
    // slower or faster depending on order). A pause lets them go to sleep first.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const start = performance.now();
    await pass();
    return performance.now() - start;
  };
  const kinds = {
    scored: () => backend.loglikelihoodRolling({ requests: [{ text }] }),
    raw: async () => {
      for (let offset = 0; offset < tokens.length; offset += 512) {
        await sequence.clearHistory();
        await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(offset, offset + 512));
      }
    },
    ...(engine
      ? { decodeRaw: () => engine.pass(tokens, false), decodeLogits: () => engine.pass(tokens, true) }
      : {}),
  };
  const times = new Map<string, number[]>(Object.keys(kinds).map((kind) => [kind, []]));
  let count = 0;
  let scorer = '';
  try {
    count = (await backend.tokenize(text)).length;
    scorer = backend.engine.scorer.path;
    for (const pass of Object.values(kinds)) await pass();
    for (let run = 0; run < passes; run++) {
      for (const [kind, pass] of Object.entries(kinds)) times.get(kind)?.push(await timed(pass));
    }
  } finally {
    engine?.close();
    await context.dispose();
    await model.dispose();
    await llama.dispose();
    await backend.close();
  }
  const rate = (kind: string, tokenCount: number) => tokenCount / (median(times.get(kind) ?? []) / 1000);
  const scoredRate = rate('scored', count);
  const rawRate = rate('raw', tokens.length);

  // The probabilities Map, over the first 128 tokens only (it is ~100× slower), one pass after a warm-up.
  const mapBackend = await GgufBackend.create({ modelPath, threads, nCtx: 512, sequences: 1, scorer: 'map' });
  let mapRate = 0;
  try {
    await mapBackend.loglikelihoodRolling({ requests: [{ text: 'a short warm-up text' }] });
    const mapCount = (await mapBackend.tokenize(mapText)).length;
    mapRate =
      mapCount /
      ((await timed(() => mapBackend.loglikelihoodRolling({ requests: [{ text: mapText }] }))) / 1000);
  } finally {
    await mapBackend.close();
  }
  const decodeRaw = engine ? rate('decodeRaw', tokens.length) : 0;
  const decodeLogits = engine ? rate('decodeLogits', tokens.length) : 0;
  report(
    `gguf perplexity, ${label} (${count} tokens, ${threads} threads, median of ${passes} interleaved passes): ` +
      `scored ${scoredRate.toFixed(0)} tok/s on the ${scorer} scorer vs raw prompt processing ` +
      `${rawRate.toFixed(0)} tok/s = ratio ${(scoredRate / rawRate).toFixed(3)} (target ≥ 0.5); ` +
      `probabilities Map ${mapRate.toFixed(0)} tok/s = ratio ${(mapRate / rawRate).toFixed(3)}` +
      (engine
        ? `; llama_decode alone (the addon, no node-llama-cpp call overhead): without outputs ${decodeRaw.toFixed(0)} tok/s = ratio ${(scoredRate / decodeRaw).toFixed(3)}, ` +
          `with every position's logits but no scoring ${decodeLogits.toFixed(0)} tok/s (the engine's own ceiling: ${(decodeLogits / decodeRaw).toFixed(3)} of raw; scored reaches ${(scoredRate / decodeLogits).toFixed(3)} of it)`
        : ''),
  );
}

/**
 * llama_decode through the native addon over 512-token windows: `pass(tokens, false)` requests no
 * outputs (raw prompt processing below node-llama-cpp's call overhead), `pass(tokens, true)` every
 * position's logits but scores nothing (what llama.cpp itself spends on the output layer, a ceiling
 * for any scorer built on it). Undefined when the addon is absent.
 */
function openEngine(
  modelPath: string,
  threads: number,
): { pass: (tokens: number[], outputs: boolean) => void; close: () => void } | undefined {
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
  return {
    pass: (tokens, outputs) => {
      for (let offset = 0; offset < tokens.length; offset += 512) {
        const window = Int32Array.from(tokens.slice(offset, offset + 512));
        addon.score(
          handle,
          window,
          Int32Array.from(window, (_, i) => i),
          new Uint32Array(window.length).fill(1),
          new Int32Array(window.length).fill(outputs ? 1 : -1),
          new Int32Array(0),
          new Int32Array(0),
        );
        addon.clear(handle);
      }
    },
    close: () => addon.close(handle),
  };
}
