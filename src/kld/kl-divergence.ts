/**
 * `assay kld`: how far a quantized (or otherwise changed) model's next-token distributions are from a
 * base model's, over a text, as llama.cpp's `llama-perplexity --kl-divergence` reports it: per-token
 * KL(base ‖ model) over the whole vocabulary, the rate at which both pick the same top token, and
 * both perplexities with their ratio. The text is laid out as llama-perplexity lays it out (chunks of
 * n_ctx tokens starting with BOS, the second half of each scored), and both models read exactly the
 * same tokens. Needs the native scorer: the full distributions never leave C++.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Llama, LlamaModel } from 'node-llama-cpp';
import { AssayError } from '../errors.js';
import { chunkedWindows } from '../evaluate/perplexity/windows.js';
import { defaultThreads } from '../models/gguf/engine.js';
import { fileSha256 } from '../models/gguf/gguf-backend.js';
import { type LlamaErrorLog, llamaErrors } from '../models/gguf/llama-errors.js';
import { checkGgufFile } from '../models/gguf/model-file.js';
import { loadNativeAddon, type NativeAddon, type NativeHandle } from '../models/gguf/native-scorer.js';
import { processLlama } from '../models/gguf/process-llama.js';
import { readTokenizerInfo } from '../models/gguf/token-windows.js';
import {
  type Distribution,
  distribution,
  exponentiated,
  type MeanAndError,
  meanAndError,
} from './statistics.js';

export interface KldOptions {
  basePath: string;
  modelPath: string;
  text: string;
  /** Chunk size in tokens (llama-perplexity's -c); default 512. */
  nCtx?: number;
  threads?: number;
  /** Where the text came from, for the report. */
  source?: Record<string, unknown>;
}

export interface KldReport {
  base: { path: string; sha256: string };
  model: { path: string; sha256: string };
  source?: Record<string, unknown>;
  n_ctx: number;
  chunks: number;
  /** Scored token positions (each a KL value and a same-top outcome). */
  tokens: number;
  kl_divergence: Distribution;
  same_top: MeanAndError;
  perplexity: {
    base: MeanAndError;
    model: MeanAndError;
    /** PPL(model) / PPL(base) = exp(mean ΔNLL), with the delta-method error of the paired differences. */
    ratio: MeanAndError;
    /** mean ln(PPL(model) / PPL(base)) per token, i.e. mean ΔNLL. */
    ln_ratio: MeanAndError;
  };
  engine: { scorer: 'native'; llamaCppCommit?: string; threads: number };
}

/** Per scored position: KL(base ‖ model), same top token, both log-probabilities of the actual token. */
export interface KldPositions {
  kl: number[];
  sameTop: boolean[];
  baseLogprobs: number[];
  modelLogprobs: number[];
}

export async function klDivergence(options: KldOptions): Promise<KldReport> {
  const loaded = loadNativeAddon();
  if (!loaded.addon) {
    throw new AssayError(
      'capability_missing',
      `assay kld needs assay's native scorer to compare full distributions, and it is not available (${loaded.reason}). Build it with \`npm run build:native\` (needs git, python3 and a C++ compiler).`,
    );
  }
  for (const file of [options.basePath, options.modelPath]) await checkGgufFile(file);
  const nCtx = options.nCtx ?? 512;
  // llama.cpp reads both files' metadata (and checks their tensors lie in the file) before anything else.
  const llama = await openLlama();
  const { tokens, bos, addBos } = await tokenizeWithBase(llama, options.basePath, options.text);
  await loadVocabulary(llama, options.modelPath, async () => undefined);
  const [baseVocab, modelVocab] = await Promise.all([
    readTokenizerInfo(options.basePath, { addBos: false, nCtx }),
    readTokenizerInfo(options.modelPath, { addBos: false, nCtx }),
  ]);
  if (baseVocab.vocabSha256 !== modelVocab.vocabSha256) {
    throw new AssayError(
      'incompatible_models',
      `the models have different vocabularies (${baseVocab.name}, ${baseVocab.vocabSize} tokens vs ${modelVocab.name}, ${modelVocab.vocabSize} tokens); KL divergence needs one token space`,
    );
  }
  const threads = options.threads ?? defaultThreads(statSync(options.basePath).size);
  const layout = chunkedWindows(tokens, { nCtx, bos, addBos, requireTwoChunks: false });
  if (layout.windows.length === 0) {
    throw new AssayError(
      'bad_data',
      `the text tokenizes to ${layout.sequence.length} tokens, fewer than one chunk of n_ctx=${nCtx}; give a longer text or a smaller \`nCtx\``,
    );
  }
  const positions = await compareModelsReporting(llama.errors, () =>
    compareModels(loaded.addon as NativeAddon, options.basePath, options.modelPath, layout.windows, {
      nCtx,
      threads,
      backendDir: loaded.bins,
    }),
  );
  const baseNll = positions.baseLogprobs.map((value) => -value);
  const modelNll = positions.modelLogprobs.map((value) => -value);
  const lnRatio = meanAndError(positions.modelLogprobs.map((value, i) => positions.baseLogprobs[i] - value));
  const [baseSha, modelSha] = await Promise.all([
    fileSha256(options.basePath),
    fileSha256(options.modelPath),
  ]);
  return {
    base: { path: path.resolve(options.basePath), sha256: baseSha },
    model: { path: path.resolve(options.modelPath), sha256: modelSha },
    ...(options.source ? { source: options.source } : {}),
    n_ctx: nCtx,
    chunks: layout.windows.length,
    tokens: positions.kl.length,
    kl_divergence: distribution(positions.kl),
    same_top: meanAndError(positions.sameTop.map(Number)),
    perplexity: {
      base: exponentiated(meanAndError(baseNll)),
      model: exponentiated(meanAndError(modelNll)),
      ratio: exponentiated(lnRatio),
      ln_ratio: lnRatio,
    },
    engine: { scorer: 'native', llamaCppCommit: loaded.llamaCppCommit, threads },
  };
}

interface OpenLlama {
  llama: Llama;
  errors: LlamaErrorLog;
}

async function openLlama(): Promise<OpenLlama> {
  const errors = llamaErrors;
  // The process's Llama also registers llama.cpp's CPU backend, which the addon's models use.
  const llama = await processLlama();
  return { llama, errors };
}

/** Loads a file's vocabulary with llama.cpp (a bad file fails here, with llama.cpp's reason) and uses it. */
async function loadVocabulary<T>(
  { llama, errors }: OpenLlama,
  modelPath: string,
  use: (model: LlamaModel) => Promise<T>,
): Promise<T> {
  let model: LlamaModel;
  try {
    errors.clear();
    model = await llama.loadModel({ modelPath, vocabOnly: true });
  } catch (error) {
    throw new AssayError(
      'bad_model_file',
      `llama.cpp cannot load the model: ${await errors.reason((error as Error).message)}`,
      { location: { file: modelPath }, cause: error },
    );
  }
  try {
    return await use(model);
  } finally {
    await model.dispose();
  }
}

/** The text's tokens (no BOS) with the base model's tokenizer, and its BOS policy from the metadata. */
async function tokenizeWithBase(
  llama: OpenLlama,
  modelPath: string,
  text: string,
): Promise<{ tokens: number[]; bos: number | null; addBos: boolean }> {
  return loadVocabulary(llama, modelPath, async (model) => {
    const ggml = model.fileInfo.metadata.tokenizer.ggml as { add_bos_token?: boolean };
    return {
      tokens: [...model.tokenize(text, false)],
      bos: model.tokens.bos,
      addBos: ggml.add_bos_token ?? model.tokens.shouldPrependBosToken,
    };
  });
}

/** compareModels, with a model the addon cannot open reported as a bad file with llama.cpp's reason. */
async function compareModelsReporting(
  errors: LlamaErrorLog,
  compare: () => KldPositions,
): Promise<KldPositions> {
  errors.clear();
  try {
    return compare();
  } catch (error) {
    if (!(error instanceof ModelOpenError)) throw error;
    const reason = await errors.reason(error.message);
    throw new AssayError('bad_model_file', `llama.cpp cannot load the model: ${reason}`, {
      location: { file: error.file },
      cause: error,
    });
  }
}

/** The addon could not open a model file. */
class ModelOpenError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** Decodes every chunk on both models and compares the distributions at each scored position. */
export function compareModels(
  addon: NativeAddon,
  basePath: string,
  modelPath: string,
  windows: Array<{ tokens: number[]; scoreFrom: number }>,
  settings: { nCtx: number; threads: number; backendDir?: string },
): KldPositions {
  const open = (file: string) =>
    addon.open(file, {
      nCtx: settings.nCtx + 1,
      batchSize: Math.max(32, settings.nCtx),
      sequences: 1,
      threads: settings.threads,
      // As the gguf backend: no flash attention and an F32 KV cache, so batching does not move scores.
      flashAttention: false,
      kvF32: true,
      gpuLayers: 0,
      backendDir: settings.backendDir,
    });
  const handles: NativeHandle[] = [];
  const positions: KldPositions = { kl: [], sameTop: [], baseLogprobs: [], modelLogprobs: [] };
  try {
    for (const file of [basePath, modelPath]) {
      try {
        handles.push(open(file));
      } catch (error) {
        throw new ModelOpenError(file, error);
      }
    }
    for (const window of windows) {
      const count = window.tokens.length;
      const targets = new Int32Array(count).fill(-1);
      // The output at position p predicts token p + 1: outputs scoreFrom − 1 … count − 2.
      for (let p = window.scoreFrom - 1; p < count - 1; p++) targets[p] = window.tokens[p + 1];
      const compared = addon.compare(
        handles[0],
        handles[1],
        Int32Array.from(window.tokens),
        Int32Array.from({ length: count }, (_, i) => i),
        new Uint32Array(count).fill(1),
        targets,
      );
      for (const handle of handles) addon.clear(handle);
      for (let i = 0; i < compared.kl.length; i++) {
        positions.kl.push(compared.kl[i]);
        positions.sameTop.push(compared.sameTop[i] === 1);
        positions.baseLogprobs.push(compared.baseLogprobs[i]);
        positions.modelLogprobs.push(compared.modelLogprobs[i]);
      }
    }
  } catch (error) {
    if (error instanceof AssayError || error instanceof ModelOpenError) throw error;
    throw new AssayError(
      'backend_error',
      `assay kld: ${error instanceof Error ? error.message : String(error)}`,
      {
        exitCode: 1,
        cause: error,
      },
    );
  } finally {
    for (const handle of handles) addon.close(handle);
  }
  return positions;
}
