import type { Answer, LoglikelihoodResult } from './answers.js';
import type { GenerateCallOptions, LoglikelihoodCallOptions, RollingCallOptions } from './requests.js';

/**
 * The version of the backend spec this assay speaks: every backend it ships, the evaluator and the
 * conformance suite speak it. A backend names the version it implements; the registry also accepts spec
 * v1 (model-backend-v1.ts) and adapts it to this one in one place (adapt-v1.ts), and refuses any other, so
 * a backend written against a newer or unknown spec fails when it is created, with a message, instead of
 * mid-run. A change to what a method takes, means or returns is a new version.
 */
export const BACKEND_SPECIFICATION_VERSION = 'v2';
export type BackendSpecificationVersion = typeof BACKEND_SPECIFICATION_VERSION;

/**
 * What a backend can do, every capability declared (never guessed from which methods exist). The three
 * request types are methods of every backend; one declared false refuses with AssayError
 * `capability_missing`, and a run that needs it stops at planning. The others are optional parts of the
 * spec, each a sub-interface (capabilities.ts) present as a whole when declared true.
 */
export interface BackendCapabilities {
  loglikelihood: boolean;
  loglikelihoodRolling: boolean;
  generate: boolean;
  /**
   * TokenScoring: `tokenize`, `detokenize`, `tokenizerInfo` and `scoreTokenWindows`. Perplexity modes
   * other than lm-eval's rolling windows (strided, chunked) need it.
   */
  tokenScoring: boolean;
  /** GenerationLogprobs: `generateWithLogprobs`, the generated tokens' log-probabilities beside the text. */
  generationLogprobs: boolean;
  /** ChatTemplating: `applyChatTemplate` and `chatTemplate` (`--apply_chat_template`). */
  chatTemplate: boolean;
  /** UsageReporting: `usage()`, requests, latency, tokens and cost of a served model. */
  usage: boolean;
}

/** Every capability name, in the order the spec lists them. */
export const CAPABILITY_NAMES = [
  'loglikelihood',
  'loglikelihoodRolling',
  'generate',
  'tokenScoring',
  'generationLogprobs',
  'chatTemplate',
  'usage',
] as const satisfies ReadonlyArray<keyof BackendCapabilities>;

export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

/** What the backend knows about itself, for the manifest. */
export interface ModelInfo {
  name: string;
  revision?: string;
  sha256?: string;
  numericFormat?: string;
  [key: string]: unknown;
}

/**
 * The model seam, version 2. Every backend (dummy, gguf, HTTP, managed servers, the response-cache
 * wrapper, third-party ones) implements it; the evaluator never knows what a task is past this point, and a
 * backend never knows what a task is either. Each method takes one call-options object (the batch, a
 * progress sink, an abort signal) and answers the batch: one answer per request, in order, and a request
 * that failed for good is a RequestError in its own slot.
 */
export interface ModelBackend {
  readonly specificationVersion: BackendSpecificationVersion;
  readonly name: string;
  readonly capabilities: BackendCapabilities;
  loglikelihood(options: LoglikelihoodCallOptions): Promise<Answer<LoglikelihoodResult>[]>;
  loglikelihoodRolling(options: RollingCallOptions): Promise<Answer<number>[]>;
  generate(options: GenerateCallOptions): Promise<Answer<string>[]>;
  /**
   * How many requests the backend works on at once (a served model's `num_concurrent`); default 1. With
   * a latency cap the evaluator sends each request alone and keeps no more than this many in flight, so
   * a request's time is its own, not time spent queued behind others. A positive integer when set.
   */
  readonly concurrency?: number;
  info(): ModelInfo;
  close?(): Promise<void>;
}
