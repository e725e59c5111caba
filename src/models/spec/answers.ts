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

/** A generated text with its tokens' log-probabilities, when the backend has them. */
export interface Generation {
  text: string;
  logprobs: GeneratedTokens | null;
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
