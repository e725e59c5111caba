import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

/** Whether a promise has settled after the microtasks queued so far run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('RateLimiter (sliding 60 s window)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('is active only with a limit', () => {
    expect(new RateLimiter(undefined, undefined).active).toBe(false);
    expect(new RateLimiter(0, 0).active).toBe(false);
    expect(new RateLimiter(10, undefined).active).toBe(true);
    expect(new RateLimiter(undefined, 1000).active).toBe(true);
  });

  it('without limits never waits', async () => {
    const limiter = new RateLimiter(undefined, undefined);
    for (let i = 0; i < 1000; i++) expect(await settled(limiter.take())).toBe(true);
  });

  it('lets requestsPerMinute requests through, then waits until the oldest leaves the window', async () => {
    const limiter = new RateLimiter(2, undefined);
    expect(await settled(limiter.take())).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await settled(limiter.take())).toBe(true);
    const third = limiter.take();
    expect(await settled(third)).toBe(false);
    // The first request started at t=0: the third fits at t=60 s, not a millisecond before.
    await vi.advanceTimersByTimeAsync(60_000 - 10_000 - 1);
    expect(await settled(third)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(third)).toBe(true);
    expect(Date.now()).toBe(new Date('2026-01-01T00:01:00Z').getTime());
    // The second (t=10 s) and third (t=60 s) fill the window again: a fourth waits until t=70 s.
    const fourth = limiter.take();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(await settled(fourth)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(fourth)).toBe(true);
  });

  it('waits while the tokens used in the window reach tokensPerMinute', async () => {
    const limiter = new RateLimiter(undefined, 100);
    expect(await settled(limiter.take())).toBe(true);
    limiter.used(60);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await settled(limiter.take())).toBe(true); // 60 < 100
    limiter.used(40);
    const third = limiter.take(); // 100 ≥ 100: waits until the 60 from t=0 leave
    expect(await settled(third)).toBe(false);
    await vi.advanceTimersByTimeAsync(54_999);
    expect(await settled(third)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(third)).toBe(true);
  });

  it('ignores zero or negative counts, and counts without a token limit', async () => {
    const limiter = new RateLimiter(undefined, 10);
    limiter.used(0);
    limiter.used(-50);
    expect(await settled(limiter.take())).toBe(true);
    limiter.used(10);
    expect(await settled(limiter.take())).toBe(false);
    const requestsOnly = new RateLimiter(5, undefined);
    requestsOnly.used(1_000_000);
    expect(await settled(requestsOnly.take())).toBe(true);
  });

  it('applies the longer wait when both limits are reached', async () => {
    const limiter = new RateLimiter(1, 10);
    expect(await settled(limiter.take())).toBe(true); // request at t=0
    await vi.advanceTimersByTimeAsync(20_000);
    limiter.used(10); // tokens at t=20 s
    const next = limiter.take();
    await vi.advanceTimersByTimeAsync(40_000); // t=60 s: the request has left, the tokens have not
    expect(await settled(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(20_000); // t=80 s
    expect(await settled(next)).toBe(true);
  });
});
