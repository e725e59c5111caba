import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from './adaptive-limit.js';

describe('AdaptiveLimit (AIMD)', () => {
  it('halves once per burst of overloads, never below 1', async () => {
    const limit = new AdaptiveLimit(64);
    const epochs = await Promise.all(Array.from({ length: 64 }, () => limit.acquire()));
    // 64 requests sent together all get 429: one decrease, not 64.
    for (const epoch of epochs) limit.overloaded(epoch);
    expect(limit.limit).toBe(32);
    for (let i = 0; i < 64; i++) limit.release();
    // Each later burst halves it again, down to 1.
    for (const expected of [16, 8, 4, 2, 1, 1]) {
      const epoch = await limit.acquire();
      limit.overloaded(epoch);
      limit.release();
      expect(limit.limit).toBe(expected);
    }
  });

  it('grows by one after a full window of successes, up to num_concurrent', async () => {
    const limit = new AdaptiveLimit(4);
    limit.overloaded(await limit.acquire());
    limit.release();
    expect(limit.limit).toBe(2);
    limit.succeeded();
    expect(limit.limit).toBe(2);
    limit.succeeded();
    expect(limit.limit).toBe(3);
    for (let i = 0; i < 3; i++) limit.succeeded();
    expect(limit.limit).toBe(4);
    for (let i = 0; i < 10; i++) limit.succeeded();
    expect(limit.limit).toBe(4);
  });

  it('holds a request beyond the limit until a permit is released', async () => {
    const limit = new AdaptiveLimit(1);
    await limit.acquire();
    let granted = false;
    const waiting = limit.acquire().then(() => {
      granted = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(granted).toBe(false);
    limit.release();
    await waiting;
    expect(granted).toBe(true);
  });
});
