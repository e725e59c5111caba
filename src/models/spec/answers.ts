/** What a backend answers, request by request. Part of backend spec v1. */

export interface LoglikelihoodResult {
  logprob: number;
  isGreedy: boolean;
}

/** Log-probabilities of the tokens a backend generated, as the server spelled and scored them. */
export interface GeneratedTokens {
  tokens: string[];
  logprobs: number[];
}

/**
 * What a reasoning model produced besides its answer, kept for the sample log. Present only when the run
 * handles thinking (`think_end_token`) or the server returned its reasoning apart from the answer.
 */
export interface GenerationThinking {
  /** The generation as the model produced it, before `think_end_token` and the stop strings cut it. */
  raw?: string;
  /** The reasoning the server returned beside the answer (`reasoning_content` / `reasoning`). */
  reasoning?: string;
  /** The generation hit max_gen_toks inside its thinking section: its answer is empty or is thinking text. */
  truncated: boolean;
}

/** A generated text with its tokens' log-probabilities, when the backend has them. */
export interface Generation {
  /** The answer: what filters and metrics see. */
  text: string;
  /**
   * The generated tokens; with thinking (see `thinking`) they are the whole generation's, thinking
   * included, as the server returned them.
   */
  logprobs: GeneratedTokens | null;
  thinking?: GenerationThinking;
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

/** One slot of a backend's answer array: the answer, or the RequestError of that request alone. */
export type Answer<T> = T | RequestError;

export function isRequestError(value: unknown): value is RequestError {
  return value instanceof RequestError;
}
