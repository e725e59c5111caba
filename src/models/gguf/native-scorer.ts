/**
 * assay's native scorer (native/scorer/scorer.cc), built at install by scripts/build-native.mjs against
 * node-llama-cpp's own llama.cpp. It returns only the scored tokens' log-probabilities (log-softmax in
 * double, so nothing underflows to -Infinity) instead of node-llama-cpp's full-vocabulary Map per
 * position, and compares two models' full distributions for `assay kld`. When it was not built (no
 * compiler, no git, another platform), callers fall back to the Map path and record why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageRoot } from '../../util/package-root.js';

/** Opaque handle of one llama.cpp model + context inside the addon. */
export type NativeHandle = { readonly __nativeScorer: unique symbol };

export interface NativeOpenOptions {
  /** KV cells shared by all sequences (one unified cache). */
  nCtx: number;
  batchSize: number;
  /** Sequence slots (at most 32: the addon takes sequence sets as 32-bit masks). */
  sequences: number;
  threads: number;
  flashAttention: boolean;
  kvF32: boolean;
  gpuLayers: number;
  /** Where to load ggml backends from when none are registered in this process yet. */
  backendDir?: string;
}

/** A flat llama_decode input: per token its position, its sequences (bitmask) and a target or -1. */
export interface NativeBatch {
  tokens: Int32Array;
  positions: Int32Array;
  sequenceMasks: Uint32Array;
  targets: Int32Array;
}

export interface NativeAddon {
  open(modelPath: string, options: NativeOpenOptions): NativeHandle;
  info(handle: NativeHandle): { vocab: number; nCtx: number; batchSize: number; sequences: number };
  /**
   * Decodes the batch (targets[i] >= 0: keep the logits after token i) and answers each query
   * (row, target) with the target's log-probability there and whether it was the argmax.
   */
  score(
    handle: NativeHandle,
    tokens: Int32Array,
    positions: Int32Array,
    sequenceMasks: Uint32Array,
    outputs: Int32Array,
    queryRows: Int32Array,
    queryTargets: Int32Array,
    topK?: number,
  ): {
    logprobs: Float64Array;
    greedy: Uint8Array;
    topTokens?: Int32Array;
    topLogprobs?: Float64Array;
    /** With topK > 0: the target's rank (tokens at least as likely, itself included). */
    ranks?: Int32Array;
  };
  compare(
    base: NativeHandle,
    model: NativeHandle,
    tokens: Int32Array,
    positions: Int32Array,
    sequenceMasks: Uint32Array,
    targets: Int32Array,
  ): { baseLogprobs: Float64Array; modelLogprobs: Float64Array; kl: Float64Array; sameTop: Uint8Array };
  clear(handle: NativeHandle): void;
  removeFrom(handle: NativeHandle, sequence: number, position: number): void;
  close(handle: NativeHandle): void;
}

/** Which scoring path an engine uses, and why: recorded in the manifest. */
export interface ScorerChoice {
  path: 'native' | 'map';
  reason?: string;
  llamaCppCommit?: string;
}

export type LoadedAddon =
  | { addon: NativeAddon; llamaCppCommit?: string; bins?: string }
  | { addon: undefined; reason: string };

let cached: LoadedAddon | undefined;

/** Loads the addon once per process; never throws. */
export function loadNativeAddon(): LoadedAddon {
  if (cached) return cached;
  const build = path.join(packageRoot(), 'native', 'scorer', 'build');
  const file = path.join(build, 'Release', 'assay_scorer.node');
  let status: { ok?: boolean; reason?: string; llamaCppCommit?: string; bins?: string } = {};
  try {
    status = JSON.parse(readFileSync(path.join(build, 'status.json'), 'utf8'));
  } catch {
    // No status: the build script never ran (e.g. npm install --ignore-scripts).
  }
  if (!existsSync(file)) {
    cached = {
      addon: undefined,
      reason: status.reason
        ? `native scorer not built: ${status.reason.split('\n')[0]}`
        : 'native scorer not built (run `node scripts/build-native.mjs`)',
    };
    return cached;
  }
  try {
    const addon = createRequire(import.meta.url)(file) as NativeAddon;
    cached = { addon, llamaCppCommit: status.llamaCppCommit, bins: status.bins };
  } catch (error) {
    cached = {
      addon: undefined,
      reason: `native scorer failed to load: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  return cached;
}
