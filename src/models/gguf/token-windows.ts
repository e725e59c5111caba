/**
 * Token-level scoring for the gguf backend (capability tokenScoring): windows laid out by the harness
 * (src/evaluate/perplexity/windows.ts) are scored by the engine in the worker, and the tokenizer is
 * identified from the GGUF metadata so token counts can be told apart across models.
 */
import { createHash } from 'node:crypto';
import { readGgufFileInfo } from 'node-llama-cpp';
import type { TokenizerInfo, TokenWindow } from '../backend.js';
import type { GgufEngine } from './engine.js';

/**
 * Runs in the worker. A window [t0 … tn−1] scored from s is the engine's scoring input: it reads
 * t0 … tn−2 and scores t_s … t_{n−1} against the outputs at positions s−1 … n−2. Windows that share a
 * prefix reuse its KV cache (engine.score groups them), which is exact with the F32 cache.
 */
export async function scoreTokenWindows(
  engine: GgufEngine,
  windows: TokenWindow[],
  onDone?: (index: number) => void,
): Promise<number[][]> {
  const inputs = windows.map((window, index) => {
    if (window.scoreFrom < 1 || window.scoreFrom > window.tokens.length) {
      throw new Error(
        `window ${index}: scoreFrom ${window.scoreFrom} is outside [1, ${window.tokens.length}]`,
      );
    }
    if (window.tokens.length - 1 > engine.maxLength) {
      throw new Error(
        `window ${index} has ${window.tokens.length} tokens; the context holds ${engine.maxLength} (+1 predicted)`,
      );
    }
    return {
      input: window.tokens.slice(0, -1),
      targets: window.tokens.slice(window.scoreFrom),
      scoredFrom: window.scoreFrom - 1,
    };
  });
  const scored = await engine.score(inputs, onDone);
  return scored.map((result) => result.logprobs);
}

interface TokenizerMetadata {
  model?: string;
  pre?: string;
  tokens: readonly string[];
  bos_token_id?: number;
  eos_token_id?: number;
}

/** Runs in the parent: the tokenizer's identity from the GGUF metadata (no tensors read). */
export async function readTokenizerInfo(
  modelPath: string,
  engine: { addBos: boolean; nCtx: number },
): Promise<TokenizerInfo> {
  const file = await readGgufFileInfo(modelPath, { readTensorInfo: false, logWarnings: false });
  const ggml = (file.metadata as unknown as { tokenizer: { ggml: TokenizerMetadata } }).tokenizer.ggml;
  const bos = ggml.bos_token_id ?? null;
  const eos = ggml.eos_token_id ?? null;
  const prefixToken = bos ?? eos;
  if (prefixToken === null) throw new Error('the model has neither a BOS nor an EOS token');
  return {
    name: `gguf:${ggml.model ?? 'unknown'}${ggml.pre ? `/${ggml.pre}` : ''}`,
    vocabSize: ggml.tokens.length,
    vocabSha256: createHash('sha256').update(JSON.stringify(ggml.tokens)).digest('hex'),
    bos,
    addBos: engine.addBos,
    prefixToken,
    maxWindowTokens: engine.nCtx,
  };
}
