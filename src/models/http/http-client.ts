import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { cacheKey, type ResponseCache } from '../../cache/response-cache.js';
import { AdaptiveLimit } from './adaptive-limit.js';
import type { RateLimiter } from './rate-limiter.js';
import { backoffMs, isOverloadStatus, isRetryableStatus, parseRetryAfter } from './retry.js';
import type { UsageRecorder } from './usage-recorder.js';

/** A response that arrived whole but does not have the shape we need; retrying would not change it. */
export class ResponseShapeError extends Error {}

export interface HttpClientOptions {
  model: string;
  /** Full endpoint URLs (replicas of one model); each request goes to the one with the fewest in flight. */
  urls: string[];
  apiKey?: string;
  headers: Record<string, string>;
  numConcurrent: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  timeoutMs: number;
  retryBackoffMs: number;
  cache?: ResponseCache;
  rateLimiter: RateLimiter;
  usage: UsageRecorder;
}

export interface PostOptions<T> {
  /** Sampled requests are not: each must get a fresh answer. */
  cacheable: boolean;
  /** Logical requests (prompts) in this HTTP request, for the usage figures. */
  prompts: number;
  /** Names the request in error messages (request index and the start of its prompt). */
  describe: () => string;
  /** Validates the parsed body; throws ResponseShapeError for a malformed answer, AssayError to stop the run. */
  parse: (json: unknown) => T;
  tokens: (value: T) => { in: number; out: number };
}

export type PostOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

interface Endpoint {
  pool: Pool;
  path: string;
  inFlight: number;
}

/**
 * The one place HTTP happens: keep-alive pools, bounded and adaptive concurrency, rate limits, retries of
 * retryable failures only, and the response cache (checked before sending, written as each answer arrives).
 */
export class HttpClient {
  private readonly endpoints: Endpoint[];
  private readonly limit: AdaptiveLimit;
  private readonly endpointPath: string;
  private pausedUntil = 0;

  constructor(private readonly options: HttpClientOptions) {
    const pools = new Map<string, Pool>();
    this.endpoints = options.urls.map((text) => {
      const url = new URL(text);
      let pool = pools.get(url.origin);
      if (!pool) {
        pool = new Pool(url.origin, {
          connections: options.numConcurrent,
          keepAliveTimeout: 30_000,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        pools.set(url.origin, pool);
      }
      return { pool, path: url.pathname + url.search, inFlight: 0 };
    });
    this.endpointPath = this.endpoints[0].path;
    this.limit = new AdaptiveLimit(options.numConcurrent);
  }

  get concurrency(): number {
    return this.limit.limit;
  }

  async post<T>(payload: Record<string, unknown>, options: PostOptions<T>): Promise<PostOutcome<T>> {
    const { cache, usage } = this.options;
    const key =
      options.cacheable && cache ? cacheKey(this.options.model, this.endpointPath, payload) : undefined;
    if (key !== undefined && cache) {
      const hit = cache.get(key);
      if (hit !== undefined) {
        const value = this.tryParse(hit, options);
        if (value !== undefined) {
          usage.fromCache(options.prompts);
          return { ok: true, value };
        }
      }
    }
    // A Buffer lets undici send a content-length and write headers and body together.
    const body = Buffer.from(JSON.stringify(payload));
    let lastError = '';
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      if (attempt > 1) usage.retried();
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) await sleep(wait);
      if (this.options.rateLimiter.active) await this.options.rateLimiter.take();
      const epoch = await this.limit.acquire();
      const endpoint = this.leastLoaded();
      endpoint.inFlight++;
      const started = performance.now();
      usage.started(started);
      usage.sent();
      let status = 0;
      let text = '';
      let retryAfterMs: number | undefined;
      try {
        const response = await endpoint.pool.request({
          path: endpoint.path,
          method: 'POST',
          headers: this.headers(),
          body,
        });
        status = response.statusCode;
        retryAfterMs = parseRetryAfter(response.headers['retry-after']);
        text = await response.body.text();
      } catch (error) {
        lastError = `connection error: ${describeNetworkError(error)}`;
      } finally {
        endpoint.inFlight--;
        this.limit.release();
      }
      if (status >= 200 && status < 300) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          // A body cut short by a proxy or a dying server: the next attempt may arrive whole.
          lastError = `malformed JSON in the response (${text.length} bytes: ${JSON.stringify(text.slice(0, 80))})`;
        }
        if (json !== undefined) {
          let value: T;
          try {
            value = options.parse(json);
          } catch (error) {
            if (!(error instanceof ResponseShapeError)) throw error;
            usage.failedRequest(options.prompts);
            return { ok: false, error: `${options.describe()}: ${error.message}` };
          }
          this.limit.succeeded();
          if (key !== undefined) cache?.put(key, text);
          const ended = performance.now();
          const tokens = options.tokens(value);
          usage.answered(ended - started, options.prompts, tokens.in, tokens.out, ended);
          this.options.rateLimiter.used(tokens.in + tokens.out);
          return { ok: true, value };
        }
      } else if (status !== 0) {
        lastError = `HTTP ${status}: ${serverMessage(text)}`;
        if (!isRetryableStatus(status)) break;
        if (isOverloadStatus(status)) this.limit.overloaded(epoch);
        if (retryAfterMs !== undefined)
          this.pausedUntil = Math.max(this.pausedUntil, Date.now() + retryAfterMs);
      }
      if (attempt < this.options.maxAttempts) {
        await sleep(Math.max(backoffMs(attempt, this.options.retryBackoffMs), retryAfterMs ?? 0));
      }
    }
    usage.failedRequest(options.prompts);
    return { ok: false, error: `${options.describe()}: ${lastError}` };
  }

  async close(): Promise<void> {
    await Promise.all(
      [...new Set(this.endpoints.map((endpoint) => endpoint.pool))].map((pool) => pool.close()),
    );
  }

  private tryParse<T>(text: string, options: PostOptions<T>): T | undefined {
    try {
      return options.parse(JSON.parse(text));
    } catch (error) {
      // An unreadable cache entry is a miss; a run-stopping error (no prompt log-probabilities) still stops.
      if (error instanceof ResponseShapeError || error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  private leastLoaded(): Endpoint {
    let best = this.endpoints[0];
    for (const endpoint of this.endpoints) if (endpoint.inFlight < best.inFlight) best = endpoint;
    return best;
  }

  private headerCache?: Record<string, string>;

  private headers(): Record<string, string> {
    if (!this.headerCache) {
      this.headerCache = { 'content-type': 'application/json', ...this.options.headers };
      if (this.options.apiKey) this.headerCache.authorization = `Bearer ${this.options.apiKey}`;
    }
    return this.headerCache;
  }
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code;
  // The pool's headersTimeout/bodyTimeout carry `timeout`; no per-request AbortSignal (it costs CPU per request).
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timed out';
  return code ? `${error.message} (${code})` : error.message;
}

/** The server's own words: OpenAI-style `{"error": {"message"}}`, `{"message"}`, `{"detail"}` or the text. */
export function serverMessage(text: string): string {
  try {
    const json = JSON.parse(text) as {
      error?: { message?: unknown } | string;
      message?: unknown;
      detail?: unknown;
    };
    const candidate =
      typeof json.error === 'object' && json.error
        ? json.error.message
        : (json.error ?? json.message ?? json.detail);
    if (typeof candidate === 'string' && candidate) return candidate.slice(0, 500);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 500) || '(empty body)';
}
