/**
 * The model seam. Every backend (dummy, gguf, HTTP) implements `ModelBackend`; the evaluator never
 * knows what a task is past this point, and a backend never knows what a task is either.
 */
export interface LoglikelihoodRequest {
  context: string;
  continuation: string;
}

export interface LoglikelihoodResult {
  logprob: number;
  isGreedy: boolean;
}

export interface RollingRequest {
  text: string;
}

export interface GenerateRequest {
  context: string;
  /** Stop strings; the returned text is cut at the first occurrence of each, in order. */
  until: string[];
  maxGenToks: number;
  temperature: number;
  doSample: boolean;
  /** Remaining generation kwargs, passed through untouched (seed, top_p, …). */
  extra: Record<string, unknown>;
}

/** Log-probabilities of the tokens a backend generated, as the server spelled and scored them. */
export interface GeneratedTokens {
  tokens: string[];
  logprobs: number[];
}

/** A generated text with its tokens' log-probabilities, when the backend has them. */
export interface Generation {
  text: string;
  logprobs: GeneratedTokens | null;
}

export interface BackendCapabilities {
  loglikelihood: boolean;
  loglikelihoodRolling: boolean;
  generate: boolean;
  /**
   * Token-level scoring: `tokenize`, `detokenize`, `tokenizerInfo` and `scoreTokenWindows` are present.
   * Perplexity modes other than lm-eval's rolling windows (strided, chunked) need it.
   */
  tokenScoring?: boolean;
}

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

/**
 * A window of tokens the model reads from its start (fresh context, position 0); every token from
 * `scoreFrom` (≥ 1) to the end is scored: log p(tokens[i] | tokens[0..i-1]).
 */
export interface TokenWindow {
  tokens: number[];
  scoreFrom: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the backend knows about itself, for the manifest. */
export interface ModelInfo {
  name: string;
  revision?: string;
  sha256?: string;
  numericFormat?: string;
  [key: string]: unknown;
}

/**
 * A request that still failed after the backend's retries. Backends put it in the result array in place
 * of the answer, so one failed request becomes one errored sample and the rest of the run goes on.
 * Failures that make every answer meaningless (a server without prompt log-probabilities) are thrown
 * as AssayError instead.
 */
export class RequestError {
  constructor(
    /** The server's message, or what went wrong reaching it, after the request it names. */
    readonly message: string,
    /** The kind of failure, for counts by cause: `HTTP 500`, `connection error`, `timed out`, `bad answer`… */
    readonly cause = 'request failed',
  ) {}
}

export type Answer<T> = T | RequestError;

export function isRequestError(value: unknown): value is RequestError {
  return value instanceof RequestError;
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
  tokensOut: number;
  costUsd: number | null;
}

export interface ProgressSink {
  /** Called after each finished request with the count done so far in this call. */
  (done: number): void;
}

/**
 * Per-call options. `signal` asks the backend to stop the call (the evaluator's latency cap, a client of
 * `assay serve` that went away); a backend that cannot stop a call lets it finish, and the caller that
 * aborted it ignores its answers.
 */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface ModelBackend {
  readonly name: string;
  readonly capabilities: BackendCapabilities;
  /** One answer per request, in order; a request that failed for good is a RequestError in its slot. */
  loglikelihood(
    requests: LoglikelihoodRequest[],
    progress?: ProgressSink,
    options?: CallOptions,
  ): Promise<Answer<LoglikelihoodResult>[]>;
  loglikelihoodRolling(
    requests: RollingRequest[],
    progress?: ProgressSink,
    options?: CallOptions,
  ): Promise<Answer<number>[]>;
  generate(
    requests: GenerateRequest[],
    progress?: ProgressSink,
    options?: CallOptions,
  ): Promise<Answer<string>[]>;
  /**
   * `generate` with the generated tokens' log-probabilities where the backend has them (served models
   * that return logprobs). The evaluator prefers it; the texts are those `generate` would return.
   */
  generateWithLogprobs?(
    requests: GenerateRequest[],
    progress?: ProgressSink,
    options?: CallOptions,
  ): Promise<Answer<Generation>[]>;
  /**
   * How many requests the backend works on at once (a served model's `num_concurrent`); default 1. With
   * a latency cap the evaluator sends each request alone and keeps no more than this many in flight, so
   * a request's time is its own, not time spent queued behind others.
   */
  readonly concurrency?: number;
  /** Renders chat messages into one prompt string; undefined when the backend has no template. */
  applyChatTemplate?(
    messages: ChatMessage[],
    options: { addGenerationPrompt: boolean; templateName?: string },
  ): string;
  /** The raw Jinja chat template, recorded in results. */
  chatTemplate?(templateName?: string): string | undefined;
  info(): ModelInfo;
  /** Text to token ids, without BOS (capability tokenScoring). */
  tokenize?(text: string): Promise<number[]>;
  detokenize?(tokens: number[]): Promise<string>;
  tokenizerInfo?(): Promise<TokenizerInfo>;
  /** Per window, the log-probability of each scored token, in order (capability tokenScoring). */
  scoreTokenWindows?(windows: TokenWindow[], progress?: ProgressSink): Promise<number[][]>;
  /** Served backends: requests/s, latency percentiles, tokens and cost so far (timing data, not scores). */
  usage?(): UsageSummary;
  close?(): Promise<void>;
}
