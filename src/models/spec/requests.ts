/** What the harness asks a backend: plain data, printable, never a task. Part of backend spec v2 (and v1). */

/** log p(continuation | context). */
export interface LoglikelihoodRequest {
  context: string;
  continuation: string;
}

/** log p(text) from an empty context, over lm-eval's disjoint rolling windows. */
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

/** Called after each finished request with the count done so far in this call. */
export type ProgressSink = (done: number) => void;

/**
 * One call of a spec v2 method: the batch and everything the caller attaches to that call, in one object
 * (as the AI SDK's provider spec passes one call-options object), so that a new per-call option is a new
 * optional field, not a new positional parameter.
 */
export interface CallOptions<Request> {
  /** The batch: one answer per request, in order. */
  requests: Request[];
  /** Told the count of finished requests of this call, after each one. */
  onProgress?: ProgressSink;
  /**
   * Asks the backend to stop the call (the evaluator's latency cap, a client of `assay serve` that went
   * away); a backend that cannot stop a call lets it finish, and the caller that aborted it ignores its
   * answers.
   */
  abortSignal?: AbortSignal;
}

export type LoglikelihoodCallOptions = CallOptions<LoglikelihoodRequest>;
export type RollingCallOptions = CallOptions<RollingRequest>;
export type GenerateCallOptions = CallOptions<GenerateRequest>;
/** `requests` are token windows (capability tokenScoring). */
export type TokenWindowsCallOptions = CallOptions<TokenWindow>;
