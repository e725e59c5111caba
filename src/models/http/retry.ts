/** Which failures are worth another attempt: the server or the network may do better next time. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** 429 and 503 mean "too many at once": the client lowers its concurrency as well as waiting. */
export function isOverloadStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential backoff with full jitter (a uniform draw below the exponential ceiling), so clients that
 * failed together do not retry together. `attempt` counts from 1 for the first retry.
 */
export function backoffMs(
  attempt: number,
  baseMs: number,
  random: () => number = Math.random,
  capMs = 10_000,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  return ceiling * random();
}
