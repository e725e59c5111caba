import type { GenerateRequest, LoglikelihoodRequest, TokenWindow } from '../backend.js';
import type { ComparisonFiles } from './distributions.js';
import type { ChatTemplated, EngineOptions, TokenGenerateRequest } from './engine.js';
import type { PromptLogprobsRequest } from './prompt-logprobs.js';

/** Messages between GgufBackend (parent) and engine-worker.ts (child), over Node's IPC channel. */
export type WorkerCall =
  | { id: number; method: 'init'; params: EngineOptions }
  | { id: number; method: 'loglikelihood'; params: Array<LoglikelihoodRequest & ChatTemplated> }
  | { id: number; method: 'rolling'; params: string[] }
  | { id: number; method: 'generate'; params: Array<GenerateRequest & ChatTemplated> }
  | { id: number; method: 'scoreTokenWindows'; params: TokenWindow[] }
  | { id: number; method: 'generateTokens'; params: TokenGenerateRequest[] }
  | { id: number; method: 'tokenize'; params: { text: string; withBos: boolean; special?: boolean } }
  | { id: number; method: 'detokenize'; params: { tokens: number[]; special?: boolean } }
  | { id: number; method: 'promptLogprobs'; params: PromptLogprobsRequest[] }
  /** assay kld (distributions.ts): no `init` needed; the two files are opened by the native scorer. */
  | { id: number; method: 'prepareComparison'; params: { files: ComparisonFiles; text: string } }
  | {
      id: number;
      method: 'compareWindows';
      params: {
        files: ComparisonFiles & { threads: number };
        windows: Array<{ tokens: number[]; scoreFrom: number }>;
      };
    }
  | { id: number; method: 'close'; params: null }
  /** Stops call `params.id` (its client went away): skipped if queued, aborted if running. */
  | { id: number; method: 'cancel'; params: { id: number } };

export type WorkerReply =
  | { id: number; kind: 'result'; result: unknown }
  /**
   * `code` 'model_load': the model file failed to load (the message is llama.cpp's reason);
   * 'cancelled': the call was cancelled (the message says how far it got).
   */
  | {
      id: number;
      kind: 'error';
      message: string;
      stack?: string;
      code?: string;
      /** An AssayError thrown in the engine process, rebuilt as one by the parent. */
      assay?: { code: string; file?: string; exitCode: number };
    }
  | { id: number; kind: 'progress'; done: number };
