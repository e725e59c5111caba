import {
  type Answer,
  type GenerateRequest,
  type Generation,
  type ProgressSink,
  RequestError,
} from '../backend.js';
import type { GenerationEndpoint } from './endpoint.js';
import type { HttpClient } from './http-client.js';
import { preview } from './request-batches.js';
import { streamJobs } from './stream-jobs.js';

export interface ServedLoopOptions {
  /** Batches in flight at once (`num_concurrent`). */
  concurrency: number;
  progress?: ProgressSink;
  signal?: AbortSignal;
}

/**
 * The generation loop of every served backend: the endpoint's batches are sent with at most
 * `concurrency` in flight through the client (retries, rate limits, the response cache, usage), and each
 * answer lands at its request's index. A request whose HTTP request failed for good, or whose answer the
 * endpoint rejects, gets a RequestError: an errored sample, never a missing one.
 */
export async function generateServed<Response>(
  client: HttpClient,
  endpoint: GenerationEndpoint<Response>,
  requests: GenerateRequest[],
  { concurrency, progress, signal }: ServedLoopOptions,
): Promise<Answer<Generation>[]> {
  const results: Answer<Generation>[] = new Array(requests.length);
  let done = 0;
  await streamJobs(endpoint.batches(requests), concurrency, async (batch) => {
    const batchRequests = batch.map((index) => requests[index]);
    const payload = await endpoint.payload(batchRequests);
    const outcome = await client.post(payload, {
      // Sampled requests are not cached: each must get a fresh answer.
      cacheable: !batchRequests[0].doSample,
      prompts: batch.length,
      describe: () => describeBatch(endpoint.label, batch, (index) => requests[index].context),
      parse: (json) => endpoint.parse(json, batch.length),
      tokens: (response) => endpoint.tokens(response),
      signal,
    });
    batch.forEach((index, position) => {
      results[index] = outcome.ok
        ? endpoint.answer(outcome.value, position, requests[index], () =>
            describeBatch(endpoint.label, [index], (at) => requests[at].context),
          )
        : new RequestError(outcome.error, outcome.cause);
    });
    done += batch.length;
    progress?.(done);
  });
  return results;
}

/** Names a batch in error messages: its first request's index and prompt, and how many more it carries. */
export function describeBatch(type: string, batch: number[], textAt: (index: number) => string): string {
  const first = batch[0];
  const more = batch.length > 1 ? ` (and ${batch.length - 1} more in the same HTTP request)` : '';
  return `${type} request #${first} ${preview(textAt(first))}${more}`;
}
