import type { ResponseCache } from '../../cache/response-cache.js';
import { HttpClient, type HttpClientOptions } from './http-client.js';
import type { HttpModelArgs } from './model-args.js';
import { RateLimiter } from './rate-limiter.js';
import { UsageRecorder } from './usage-recorder.js';

/** The client options every served backend derives from its model args, without URLs, cache or usage. */
export function clientSettings(
  name: string,
  args: HttpModelArgs,
  injected: Pick<HttpClientOptions, 'sleep'> = {},
): Omit<HttpClientOptions, 'urls' | 'cache' | 'rateLimiter' | 'usage'> {
  return {
    model: args.model,
    apiKey: args.apiKey,
    headers: args.headerMap,
    numConcurrent: args.num_concurrent,
    maxAttempts: args.max_retries,
    timeoutMs: args.timeout * 1000,
    retryBackoffMs: args.retry_backoff * 1000,
    maxRetryWaitMs: args.max_retry_wait * 1000,
    label: `${name} at ${args.baseUrls[0]}`,
    ...injected,
  };
}

/**
 * A served backend's model endpoint client: its replicas, the response cache, the rate limits and the
 * usage recorder (priced as the model args say), built the same way for every endpoint.
 */
export function servedClient(
  name: string,
  args: HttpModelArgs,
  cache: ResponseCache | undefined,
  injected: Pick<HttpClientOptions, 'sleep'> = {},
): { client: HttpClient; usage: UsageRecorder } {
  const usage = new UsageRecorder({
    inputPerMillion: args.price_input_per_million,
    outputPerMillion: args.price_output_per_million,
  });
  const client = new HttpClient({
    ...clientSettings(name, args, injected),
    urls: args.baseUrls,
    cache,
    rateLimiter: new RateLimiter(args.max_requests_per_minute, args.max_tokens_per_minute),
    usage,
  });
  return { client, usage };
}
