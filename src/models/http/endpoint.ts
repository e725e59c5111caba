import type { Answer, GenerateRequest, Generation } from '../backend.js';

/**
 * One served endpoint's generation, as lm-eval's TemplateAPI subclasses are: a payload builder and a
 * response parser. Everything else (batching order, concurrency, retries, caching, usage, errors as
 * samples) is the one loop in served-loop.ts, shared by every endpoint.
 */
export interface GenerationEndpoint<Response> {
  /** Names the request type in error messages (`generate_until`, `generate_until (chat)`). */
  readonly label: string;
  /** Request indices sent together in one HTTP request, in the order they go out. */
  batches(requests: GenerateRequest[]): Iterator<number[]>;
  /** The JSON body for these requests (one batch, in order). */
  payload(batch: GenerateRequest[]): Promise<Record<string, unknown>>;
  /** Validates the body; throws ResponseShapeError (a bad or malformed answer) for a body it cannot use. */
  parse(json: unknown, prompts: number): Response;
  /** Prompt, generated and reasoning tokens the response was billed for. */
  tokens(response: Response): { in: number; out: number; reasoning?: number };
  /**
   * The answer of the request at `position` in its batch; a RequestError (an errored sample) when the
   * response has no usable answer for it. `describe` names the request for that message.
   */
  answer(
    response: Response,
    position: number,
    request: GenerateRequest,
    describe: () => string,
  ): Answer<Generation>;
}
