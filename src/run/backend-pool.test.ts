import { describe, expect, it } from 'vitest';
import type { UsageSummary } from '../models/backend.js';
import { createBackendPool, usageBetween } from './backend-pool.js';

const summary = (values: Partial<UsageSummary>): UsageSummary => ({
  requests: 0,
  httpRequests: 0,
  cachedRequests: 0,
  retries: 0,
  failedRequests: 0,
  seconds: 0,
  requestsPerSecond: 0,
  latencyP50Ms: null,
  latencyP95Ms: null,
  tokensIn: 0,
  tokensOut: 0,
  costUsd: null,
  ...values,
});

describe('backend pool', () => {
  it('creates one backend per name and args, keeps it open across leases, closes it once', async () => {
    const pool = createBackendPool();
    const first = await pool.acquire('dummy', { seed: 3 }, {});
    const second = await pool.acquire('dummy', { seed: 3 }, {});
    const other = await pool.acquire('dummy', { seed: 4 }, {});
    expect(pool.created).toBe(2);
    // A lease has no close: the evaluation that borrowed it cannot stop it.
    expect(first.close).toBeUndefined();
    // Both leases answer as the same backend (same seed, same answers).
    const request = { context: 'Q: 2+2', continuation: ' 4' };
    expect(await first.loglikelihood({ requests: [request] })).toEqual(
      await second.loglikelihood({ requests: [request] }),
    );
    expect(await other.loglikelihood({ requests: [request] })).not.toEqual(
      await first.loglikelihood({ requests: [request] }),
    );
    await pool.close();
    expect(pool.created).toBe(2);
  });

  it("reports each lease's usage as the difference of the cumulative counters", () => {
    const before = summary({
      requests: 10,
      httpRequests: 4,
      cachedRequests: 2,
      retries: 1,
      failedRequests: 1,
      seconds: 5,
      tokensIn: 100,
      tokensOut: 40,
      latencyP50Ms: 20,
      latencyP95Ms: 50,
      costUsd: 0.5,
    });
    const after = summary({
      requests: 25,
      httpRequests: 9,
      cachedRequests: 2,
      retries: 3,
      failedRequests: 1,
      seconds: 8,
      tokensIn: 260,
      tokensOut: 100,
      latencyP50Ms: 22,
      latencyP95Ms: 60,
      costUsd: 1.25,
    });
    expect(usageBetween(before, after)).toEqual({
      requests: 15,
      httpRequests: 5,
      cachedRequests: 0,
      retries: 2,
      failedRequests: 0,
      seconds: 3,
      requestsPerSecond: 5,
      // Percentiles of the later requests alone are not recoverable from two cumulative summaries.
      latencyP50Ms: null,
      latencyP95Ms: null,
      tokensIn: 160,
      tokensOut: 60,
      costUsd: 0.75,
    });
    // A lease that starts on a fresh backend keeps its percentiles: they are its own.
    const fresh = usageBetween(summary({}), after);
    expect([fresh.latencyP50Ms, fresh.latencyP95Ms]).toEqual([22, 60]);
  });
});
