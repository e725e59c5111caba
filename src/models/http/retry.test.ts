import { describe, expect, it } from 'vitest';
import { backoffMs, isOverloadStatus, isRetryableStatus, parseRetryAfter } from './retry.js';

describe('retry rules', () => {
  it('retries 408, 409, 429 and 5xx only, as the AI SDK’s APICallError.isRetryable does', () => {
    const retryable = [408, 409, 429, 500, 502, 503, 504, 599];
    const final = [200, 400, 401, 403, 404, 405, 413, 422, 451];
    expect(retryable.map(isRetryableStatus)).toEqual(retryable.map(() => true));
    expect(final.map(isRetryableStatus)).toEqual(final.map(() => false));
  });

  it('treats 429 and 503 (and only those) as overload', () => {
    expect([429, 503, 500, 502, 408].map(isOverloadStatus)).toEqual([true, true, false, false, false]);
  });

  it('reads Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3)', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000);
    // A date already past is no wait at all; a header given twice is read by its first value.
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(['2', '9'], now)).toBe(2000);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('backs off exponentially with full jitter under a cap', () => {
    // random() = 1 gives the ceiling: base × 2^(attempt−1), capped.
    expect([1, 2, 3, 4].map((attempt) => backoffMs(attempt, 500, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffMs(10, 500, () => 1)).toBe(10_000);
    expect(backoffMs(10, 500, () => 1, 3000)).toBe(3000);
    expect(backoffMs(3, 500, () => 0.25)).toBe(500);
    expect(backoffMs(3, 500, () => 0)).toBe(0);
  });
});
