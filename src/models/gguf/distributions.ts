/**
 * The engine process's side of assay kld (capability `distributionComparison`, spec in
 * models/spec/distribution-comparison.ts): two GGUF files opened by the native scorer, decoded on the same
 * tokens, their full distributions compared in C++. It runs in the engine worker, so llama.cpp never runs
 * in the main process; the parent is GgufDistributionComparison (distribution-comparison.ts).
 */
import { statSync } from 'node:fs';
import type { Llama, LlamaModel } from 'node-llama-cpp';
import { AssayError } from '../../errors.js';
import type { ComparedPositions } from '../spec/distribution-comparison.js';
import { defaultThreads } from './engine.js';
import { type LlamaErrorLog, llamaErrors } from './llama-errors.js';
import { checkGgufFile } from './model-file.js';
import { loadNativeAddon, type NativeAddon, type NativeHandle } from './native-scorer.js';
import { processLlama } from './process-llama.js';
import { readTokenizerInfo } from './token-windows.js';

export interface ComparisonFiles {
  basePath: string;
  modelPath: string;
  nCtx: number;
  threads?: number;
}

/** What `prepare` settles once: the engine's settings and the text's tokens. */
export interface PreparedComparison {
  tokens: number[];
  bos: number | null;
  addBos: boolean;
  threads: number;
  llamaCppCommit?: string;
}

function nativeAddon(): { addon: NativeAddon; bins?: string; llamaCppCommit?: string } {
  const loaded = loadNativeAddon();
  if (!loaded.addon) {
    throw new AssayError(
      'capability_missing',
      `assay kld needs assay's native scorer to compare full distributions, and it is not available (${loaded.reason}). Build it with \`npm run build:native\` (needs git, python3 and a C++ compiler).`,
    );
  }
  return { addon: loaded.addon, bins: loaded.bins, llamaCppCommit: loaded.llamaCppCommit };
}

/**
 * Checks both files (llama.cpp reads their metadata and checks their tensors lie in the file), tokenizes
 * the text with the base model, and refuses two vocabularies.
 */
export async function prepareComparison(files: ComparisonFiles, text: string): Promise<PreparedComparison> {
  const { llamaCppCommit } = nativeAddon();
  for (const file of [files.basePath, files.modelPath]) await checkGgufFile(file);
  const llama = await openLlama();
  const { tokens, bos, addBos } = await tokenizeWithBase(llama, files.basePath, text);
  await loadVocabulary(llama, files.modelPath, async () => undefined);
  const [baseVocab, modelVocab] = await Promise.all([
    readTokenizerInfo(files.basePath, { addBos: false, nCtx: files.nCtx }),
    readTokenizerInfo(files.modelPath, { addBos: false, nCtx: files.nCtx }),
  ]);
  if (baseVocab.vocabSha256 !== modelVocab.vocabSha256) {
    throw new AssayError(
      'incompatible_models',
      `the models have different vocabularies (${baseVocab.name}, ${baseVocab.vocabSize} tokens vs ${modelVocab.name}, ${modelVocab.vocabSize} tokens); KL divergence needs one token space`,
    );
  }
  const threads = files.threads ?? defaultThreads(statSync(files.basePath).size);
  return { tokens, bos, addBos, threads, ...(llamaCppCommit ? { llamaCppCommit } : {}) };
}

/** Compares the windows on both models, a model the addon cannot open reported with llama.cpp's reason. */
export async function compareWindows(
  files: ComparisonFiles & { threads: number },
  windows: Array<{ tokens: number[]; scoreFrom: number }>,
): Promise<ComparedPositions> {
  const { addon, bins } = nativeAddon();
  const errors = llamaErrors;
  errors.clear();
  try {
    return compareModels(addon, files.basePath, files.modelPath, windows, {
      nCtx: files.nCtx,
      threads: files.threads,
      backendDir: bins,
    });
  } catch (error) {
    if (!(error instanceof ModelOpenError)) throw error;
    const reason = await errors.reason(error.message);
    throw new AssayError('bad_model_file', `llama.cpp cannot load the model: ${reason}`, {
      location: { file: error.file },
      cause: error,
    });
  }
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
): ComparedPositions {
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
  const positions: ComparedPositions = { kl: [], sameTop: [], baseLogprobs: [], modelLogprobs: [] };
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
