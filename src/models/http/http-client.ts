import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { cacheKey, type ResponseCache } from '../../cache/response-cache.js';
import { AssayError } from '../../errors.js';
import { quoteAnswer } from '../../util/secrets.js';
import { AdaptiveLimit } from './adaptive-limit.js';
import type { RateLimiter } from './rate-limiter.js';
import { backoffMs, isOverloadStatus, isRetryableStatus, parseRetryAfter } from './retry.js';
import { Pool } from './undici-pool.js';
import type { UsageRecorder } from './usage-recorder.js';

/**
 * A response that arrived whole but does not have the shape we need, or fails the checks against its
 * request (see answer-checks.ts); retrying would not change it. `cause` names the kind for counts.
 */
export class ResponseShapeError extends Error {
  constructor(
    message: string,
    readonly kind: 'malformed response' | 'bad answer' = 'malformed response',
  ) {
    super(message);
  }
}

export interface HttpClientOptions {
  model: string;
  /** Full endpoint URLs (replicas of one model); each request goes to the one with the fewest in flight. */
  urls: string[];
  apiKey?: string;
  headers: Record<string, string>;
  numConcurrent: number;
  /** Attempts in all, the first included; waits asked for by 429/503 with Retry-After do not count. */
  maxAttempts: number;
  /** Wall-clock deadline of one attempt, from sending to the last byte of the body. */
  timeoutMs: number;
  retryBackoffMs: number;
  /** Total Retry-After wait one request may spend on 429/503 answers before it fails. */
  maxRetryWaitMs: number;
  cache?: ResponseCache;
  rateLimiter: RateLimiter;
  usage: UsageRecorder;
  /** Names the backend in the message that stops a run (fail fast). */
  label?: string;
  /**
   * How the client waits (backoff, Retry-After, a server-wide pause): real timers unless a caller (a test)
   * injects its own, which sees every wait in milliseconds and decides how long it really takes.
   */
  sleep?: (ms: number) => Promise<unknown>;
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
  /** Prompt and generated tokens of the answer, and of those the reasoning tokens where the server says. */
  tokens: (value: T) => { in: number; out: number; reasoning?: number };
  /** Stops the request (the evaluator's latency cap): the attempt in flight is aborted, none follows. */
  signal?: AbortSignal;
}

/** `cause` is the kind of failure (`HTTP 500`, `connection error`, `timed out`, `bad answer`…). */
export type PostOutcome<T> = { ok: true; value: T } | { ok: false; error: string; cause: string };

interface Endpoint {
  pool: Pool;
  path: string;
  inFlight: number;
}

/** What one attempt ended with, when it did not end with an answer. */
interface Failure {
  cause: string;
  detail: string;
  retryable: boolean;
  connection: boolean;
}

/** How many of the first requests must all fail the same way before the run stops. */
export const FAIL_FAST_REQUESTS = 8;

/** The reason a request is aborted at its deadline. */
class DeadlineExceeded extends Error {}

/**
 * A request's wall-clock deadline, as the signal undici aborts it by. undici accepts an EventEmitter as a
 * signal: about 1 µs a request, where an AbortController costs about 15 (the harness spends ~300 µs a request).
 */
class Deadline extends EventEmitter {
  aborted = false;
  reason: Error | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    super();
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.reason = new DeadlineExceeded();
      this.emit('abort');
    }, ms);
    this.timer.unref();
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  /** Aborts now (the caller's own signal fired); the reason says it was not the deadline. */
  abortNow(reason: Error): void {
    if (this.aborted) return;
    clearTimeout(this.timer);
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** A request its caller stopped: no answer, no retry, and not a failure of the server. */
const CANCELLED = { ok: false, error: 'cancelled by the caller', cause: 'cancelled' } as const;

/**
 * The one place HTTP happens: keep-alive pools, bounded and adaptive concurrency, rate limits, retries of
 * retryable failures only, and the response cache (checked before sending, written as each answer arrives).
 * It stops the run (an AssayError, exit 1) when its first requests show the server cannot answer at all:
 * the first 8 failing with one non-retryable cause, or the first failing to connect on every attempt.
 */
export class HttpClient {
  private readonly endpoints: Endpoint[];
  private readonly limit: AdaptiveLimit;
  private readonly endpointPath: string;
  private pausedUntil = 0;
  /** Until an answer arrives: the failures of the first requests, to tell a dead server from bad luck. */
  private firstFailures: Array<{ key: string; request: string }> | undefined = [];
  private stopped?: AssayError;
  private readonly sleep: (ms: number) => Promise<unknown>;
  /** What a quoted answer must never show: the key, and the values of headers that carry credentials. */
  private readonly secrets: string[];

  constructor(private readonly options: HttpClientOptions) {
    this.sleep = options.sleep ?? sleep;
    this.secrets = [
      ...(options.apiKey ? [options.apiKey] : []),
      ...Object.entries(options.headers)
        .filter(([name]) => CREDENTIAL_HEADER.test(name))
        .flatMap(([, value]) => [value, value.replace(/^(Bearer|Basic|Token)\s+/i, '')]),
    ];
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
    if (this.stopped) throw this.stopped;
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
    let failure: Failure | undefined;
    let failedAttempts = 0;
    let connectionFailures = 0;
    let rateLimitedMs = 0;
    for (let sent = 0; ; sent++) {
      if (sent > 0) usage.retried();
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) await this.sleep(wait);
      if (this.stopped) throw this.stopped;
      if (options.signal?.aborted) return CANCELLED;
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
      // The deadline covers the whole attempt, body included: undici's own timeouts restart at every byte.
      const deadline = new Deadline(this.options.timeoutMs);
      const cancel = () => deadline.abortNow(new Error('cancelled by the caller'));
      options.signal?.addEventListener('abort', cancel, { once: true });
      try {
        const response = await endpoint.pool.request({
          path: endpoint.path,
          method: 'POST',
          headers: this.headers(),
          body,
          signal: deadline,
        });
        status = response.statusCode;
        retryAfterMs = parseRetryAfter(response.headers['retry-after']);
        text = await response.body.text();
      } catch (error) {
        if (options.signal?.aborted) return CANCELLED;
        status = 0;
        const timedOut = deadline.aborted || isTimeout(error);
        failure = {
          cause: timedOut ? 'timed out' : 'connection error',
          detail: `connection error: ${timedOut ? 'timed out' : describeNetworkError(error)}`,
          retryable: true,
          connection: !timedOut,
        };
      } finally {
        options.signal?.removeEventListener('abort', cancel);
        deadline.clear();
        endpoint.inFlight--;
        this.limit.release();
      }
      if (status >= 200 && status < 300) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          // A body cut short by a proxy or a dying server: the next attempt may arrive whole.
          failure = {
            cause: 'malformed JSON',
            detail: `malformed JSON in the response (${text.length} bytes: ${JSON.stringify(quoteAnswer(text, this.secrets, 80))})`,
            retryable: true,
            connection: false,
          };
        }
        if (json !== undefined) {
          let value: T;
          try {
            value = options.parse(json);
          } catch (error) {
            if (!(error instanceof ResponseShapeError)) throw error;
            usage.failedRequest(options.prompts);
            const shape = { cause: error.kind, detail: error.message, retryable: false, connection: false };
            return this.failed(shape, options);
          }
          this.firstFailures = undefined;
          this.limit.succeeded();
          if (key !== undefined) cache?.put(key, text);
          const ended = performance.now();
          const tokens = options.tokens(value);
          usage.answered(ended - started, options.prompts, tokens.in, tokens.out, ended, tokens.reasoning);
          this.options.rateLimiter.used(tokens.in + tokens.out);
          return { ok: true, value };
        }
      } else if (status !== 0) {
        failure = {
          cause: `HTTP ${status}`,
          detail: `HTTP ${status}: ${serverMessage(text, this.secrets)}`,
          retryable: isRetryableStatus(status),
          connection: false,
        };
        if (!failure.retryable) break;
        if (isOverloadStatus(status)) this.limit.overloaded(epoch);
        if (retryAfterMs !== undefined) {
          this.pausedUntil = Math.max(this.pausedUntil, Date.now() + retryAfterMs);
          if (isOverloadStatus(status)) {
            // "Come back later" is not a failed attempt: it is bounded by its own time budget. A
            // Retry-After of 0 waits the backoff base, so the budget always runs out.
            const waitMs = Math.max(retryAfterMs, this.options.retryBackoffMs, 1);
            if (rateLimitedMs + waitMs > this.options.maxRetryWaitMs) {
              failure.detail += ` (still rate limited after ${(rateLimitedMs / 1000).toFixed(1)} s of Retry-After waits; max_retry_wait=${this.options.maxRetryWaitMs / 1000})`;
              break;
            }
            rateLimitedMs += waitMs;
            await this.sleep(waitMs);
            continue;
          }
        }
      }
      failedAttempts++;
      if (failure?.connection) connectionFailures++;
      if (failedAttempts >= this.options.maxAttempts) break;
      await this.sleep(Math.max(backoffMs(failedAttempts, this.options.retryBackoffMs), retryAfterMs ?? 0));
    }
    usage.failedRequest(options.prompts);
    const last = failure ?? {
      cause: 'request failed',
      detail: 'no answer',
      retryable: true,
      connection: false,
    };
    if (this.firstFailures && connectionFailures === failedAttempts && last.connection) {
      this.stop(
        `could not connect to ${this.options.urls[0]}: all ${failedAttempts} attempts of ${options.describe()} failed (${last.detail.replace(/^connection error: /, '')}) and no request has been answered; is the server running at that address?`,
      );
    }
    return this.failed(last, options);
  }

  /**
   * A request failed for good. While no request has been answered yet, the first 8 failures are kept:
   * when all of them have one non-retryable cause, the server cannot answer this run at all, and the
   * run stops with that cause instead of grinding through every request.
   */
  private failed<T>(failure: Failure, options: PostOptions<T>): PostOutcome<T> {
    const request = options.describe();
    const first = this.firstFailures;
    if (first && first.length < FAIL_FAST_REQUESTS) {
      first.push({ key: failure.retryable ? '' : failure.detail, request });
      const same = first.every((entry) => entry.key !== '' && entry.key === first[0].key);
      if (first.length === FAIL_FAST_REQUESTS && same) {
        this.stop(
          `the first ${FAIL_FAST_REQUESTS} requests all failed the same way: ${failure.detail} (e.g. ${first[0].request}); stopping instead of sending the rest`,
        );
      }
    }
    return { ok: false, error: `${request}: ${failure.detail}`, cause: failure.cause };
  }

  private stop(message: string): never {
    this.stopped ??= new AssayError(
      'backend_error',
      `${this.options.label ? `${this.options.label}: ` : ''}${message}`,
      { exitCode: 1 },
    );
    throw this.stopped;
  }

  async close(): Promise<void> {
    // After a stop, requests still in flight are abandoned rather than waited for.
    await Promise.all(
      [...new Set(this.endpoints.map((endpoint) => endpoint.pool))].map((pool) =>
        this.stopped ? pool.destroy() : pool.close(),
      ),
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

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return (
    error instanceof DeadlineExceeded || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
  );
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code;
  return code ? `${error.message} (${code})` : error.message;
}

/** Header names whose values are credentials: masked wherever an answer is quoted. */
const CREDENTIAL_HEADER = /authorization|api[-_]?key|token|secret|cookie|password/i;

/**
 * The server's own words: OpenAI-style `{"error": {"message"}}`, `{"message"}`, `{"detail"}` or the text,
 * with every secret masked before it is cut to 500 characters (a server may echo the request's headers).
 */
export function serverMessage(text: string, secrets: readonly string[] = []): string {
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
    if (typeof candidate === 'string' && candidate) return quoteAnswer(candidate, secrets, 500);
  } catch {
    // not JSON: fall through to the raw text
  }
  return quoteAnswer(text, secrets, 500) || '(empty body)';
}
