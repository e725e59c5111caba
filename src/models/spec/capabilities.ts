/**
 * The optional parts of backend spec v2, one sub-interface per capability, and the type predicates the
 * harness asks before it uses one. A predicate is true when the backend declares the capability; the
 * registry has already checked (spec-check.ts) that a declared capability comes with all its methods.
 */
import type { Answer, Generation } from './answers.js';
import type { ModelBackend } from './model-backend.js';
import type { ChatMessage, GenerateCallOptions, TokenWindowsCallOptions } from './requests.js';

/** Which tokenizer produced a token count: perplexities per token compare only under the same one. */
export interface TokenizerInfo {
  /** The tokenizer model as the backend names it (GGUF: tokenizer.ggml.model, with .pre when set). */
  name: string;
  /** null when the backend cannot see the vocabulary (a served model whose server does not expose it). */
  vocabSize: number | null;
  /** sha256 of the vocabulary: JSON.stringify of the token strings in id order; null as vocabSize. */
  vocabSha256: string | null;
  /** Why the vocabulary fields are null, or where they came from when not obvious; recorded in results. */
  note?: string;
  bos: number | null;
  /** The backend prepends BOS when it encodes a whole text. */
  addBos: boolean;
  /** lm-eval's prefix_token_id (BOS, else EOS): the context of a text's first token. */
  prefixToken: number;
  /** Longest window `scoreTokenWindows` accepts, in tokens. */
  maxWindowTokens: number;
}

/** Capability `tokenScoring`: the harness lays out token windows itself (strided and chunked perplexity). */
export interface TokenScoring {
  /** Text to token ids, without BOS. */
  tokenize(text: string): Promise<number[]>;
  detokenize(tokens: number[]): Promise<string>;
  tokenizerInfo(): Promise<TokenizerInfo>;
  /**
   * Per window, the log-probability of each scored token, in order. A window that fails for good fails
   * the call: a perplexity with a window missing would be wrong, not partial.
   */
  scoreTokenWindows(options: TokenWindowsCallOptions): Promise<number[][]>;
}

/**
 * Capability `generationLogprobs`: `generate` with the generated tokens' log-probabilities where the
 * backend has them (null for a generation without). The texts are those `generate` would return; the
 * evaluator prefers this method when it is declared.
 */
export interface GenerationLogprobs {
  generateWithLogprobs(options: GenerateCallOptions): Promise<Answer<Generation>[]>;
}

/**
 * Capability `chatTemplate`: renders chat messages into one prompt (`--apply_chat_template`), as lm-eval's
 * `apply_chat_template(chat_history, add_generation_prompt)`: without a generation prompt the prompt
 * continues the final (assistant) message (transformers' `continue_final_message`).
 */
export interface ChatTemplating {
  applyChatTemplate(
    messages: ChatMessage[],
    options: {
      addGenerationPrompt: boolean;
      /**
       * transformers' continue_final_message. Default: `!addGenerationPrompt`, as lm-eval asks for it;
       * a server answering a chat request (vLLM's semantics) passes its own.
       */
      continueFinalMessage?: boolean;
      /** Template variables of the request (vLLM's chat_template_kwargs); they win over the model's own. */
      variables?: Record<string, unknown>;
      templateName?: string;
      /** Told what lm-eval warns about (a template that raised, rendered again without the system message). */
      warn?: (message: string) => void;
    },
  ): string;
  /** The raw Jinja chat template, recorded in results; undefined when the renderer is not a template. */
  chatTemplate(templateName?: string): string | undefined;
}

/** Per-request usage a served backend records; results carry the summary in `request_stats.usage`. */
export interface UsageSummary {
  requests: number;
  /** HTTP requests sent, retries included, answers from the response cache excluded. */
  httpRequests: number;
  cachedRequests: number;
  retries: number;
  failedRequests: number;
  seconds: number;
  requestsPerSecond: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  tokensIn: number;
  /** Generated tokens, thinking included (servers count reasoning tokens as completion tokens). */
  tokensOut: number;
  /**
   * Of `tokensOut`, the reasoning tokens the server reported (`usage.completion_tokens_details.reasoning_tokens`,
   * SGLang's `usage.reasoning_tokens`); absent when no answer carried the count.
   */
  reasoningTokens?: number;
  costUsd: number | null;
}

/** Capability `usage`: requests/s, latency percentiles, tokens and cost so far (timing data, not scores). */
export interface UsageReporting {
  usage(): UsageSummary;
}

/** The methods of each optional capability, for the spec check and for wrappers that pass them through. */
export const CAPABILITY_METHODS = {
  tokenScoring: ['tokenize', 'detokenize', 'tokenizerInfo', 'scoreTokenWindows'],
  generationLogprobs: ['generateWithLogprobs'],
  chatTemplate: ['applyChatTemplate', 'chatTemplate'],
  usage: ['usage'],
} as const satisfies {
  tokenScoring: ReadonlyArray<keyof TokenScoring>;
  generationLogprobs: ReadonlyArray<keyof GenerationLogprobs>;
  chatTemplate: ReadonlyArray<keyof ChatTemplating>;
  usage: ReadonlyArray<keyof UsageReporting>;
};

export type OptionalCapability = keyof typeof CAPABILITY_METHODS;

function provides(backend: ModelBackend, capability: OptionalCapability): boolean {
  if (backend.capabilities[capability] !== true) return false;
  const methods = backend as unknown as Record<string, unknown>;
  return CAPABILITY_METHODS[capability].every((method) => typeof methods[method] === 'function');
}

export function hasTokenScoring<B extends ModelBackend>(backend: B): backend is B & TokenScoring {
  return provides(backend, 'tokenScoring');
}

export function hasGenerationLogprobs<B extends ModelBackend>(backend: B): backend is B & GenerationLogprobs {
  return provides(backend, 'generationLogprobs');
}

export function hasChatTemplate<B extends ModelBackend>(backend: B): backend is B & ChatTemplating {
  return provides(backend, 'chatTemplate');
}

export function hasUsage<B extends ModelBackend>(backend: B): backend is B & UsageReporting {
  return provides(backend, 'usage');
}
