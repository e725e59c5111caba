/**
 * What `assay serve` serves over vLLM's HTTP API: a token-level model (prompts as token ids, the prompt's
 * own log-probabilities with ranks and alternatives, generation from tokens with why it stopped). Not a
 * capability of ModelBackend (the evaluator never asks for it) but a seam of its own, as
 * distribution-comparison.ts is for assay kld: serve/ is typed against this file alone, and the gguf
 * backend implements it. Its calls take one call-options object, as spec v2's do.
 */
import type { ChatTemplating, TokenizerInfo } from './capabilities.js';
import type { CallOptions, GenerateRequest } from './requests.js';

/** A generation from prompt tokens. */
export interface TokenGenerateRequest extends Omit<GenerateRequest, 'context'> {
  tokens: number[];
}

export interface TokenGeneration {
  text: string;
  /** The generated tokens, an end-of-generation token included (the text omits it). */
  tokens: number[];
  finish: 'stop' | 'length';
  /** The stop string that ended it, if one did. */
  stop?: string;
}

export interface PromptLogprobsRequest {
  tokens: number[];
  /** Alternatives per position (0: none). */
  topK: number;
}

/** One of the most likely tokens at a position: id, log-probability, text. */
export type Alternative = [number, number, string];

export interface PromptLogprobs {
  /** Token i's text; the pieces concatenate to the detokenized prompt (special tokens spelled). */
  pieces: string[];
  /** Null for the first token, which nothing predicts. */
  logprobs: Array<number | null>;
  /** Token i's rank among the candidates at its position: tokens at least as likely, itself included. */
  ranks: Array<number | null>;
  /** The most likely tokens at each position. */
  top: Array<Alternative[] | null>;
  /**
   * The most likely next token after the prompt, with its log-probability, rank, text, alternatives, and
   * whether it is a special token (an end-of-generation or control token, which a generation's text omits).
   */
  next: { token: number; logprob: number; rank: number; piece: string; special: boolean; top: Alternative[] };
}

/** The served model's context and vocabulary, for limits and `/tokenizer_info`. */
export interface ServedEngine {
  /** Context length in tokens. */
  nCtx: number;
  vocabSize: number;
  /** The model adds BOS to a text it tokenizes with special tokens. */
  addBos: boolean;
  bosString?: string;
  eosString?: string;
}

export interface ServedModel extends ChatTemplating {
  /** `withBos`: the model's special tokens added; `special`: text spelling a special token becomes it. */
  tokenize(text: string, withBos?: boolean, special?: boolean): Promise<number[]>;
  /** `special`: special tokens spelled as their text. */
  detokenize(tokens: number[], special?: boolean): Promise<string>;
  tokenizerInfo(): Promise<TokenizerInfo>;
  /** Per-token log-probabilities of whole prompts; `abortSignal` cancels the call. */
  promptLogprobs(options: CallOptions<PromptLogprobsRequest>): Promise<PromptLogprobs[]>;
  /** Generation from prompt tokens; `abortSignal` stops it between tokens. */
  generateTokens(options: CallOptions<TokenGenerateRequest>): Promise<TokenGeneration[]>;
  readonly engine: ServedEngine;
}
