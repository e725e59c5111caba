import { describe, expect, it } from 'vitest';
import { UsageRecorder } from './usage-recorder.js';

describe('UsageRecorder', () => {
  it('gives nearest-rank latency percentiles per logical request, rates over wall time, and cost', () => {
    const usage = new UsageRecorder({ inputPerMillion: 3, outputPerMillion: 15 });
    usage.started(1_000);
    // 100 single-prompt answers with latencies 1 … 100 ms, in shuffled order; the last ends 4 s in.
    const order = Array.from({ length: 100 }, (_, i) => ((i * 37) % 100) + 1);
    for (const latency of order) {
      usage.sent();
      usage.answered(latency, 1, 10_000, 5_000, 1_000 + latency * 40);
    }
    usage.fromCache(3);
    usage.retried();
    usage.failedRequest(2);
    expect(usage.summary()).toEqual({
      requests: 105,
      httpRequests: 100,
      cachedRequests: 3,
      retries: 1,
      failedRequests: 2,
      seconds: 4,
      requestsPerSecond: 25,
      latencyP50Ms: 50,
      latencyP95Ms: 95,
      tokensIn: 1_000_000,
      tokensOut: 500_000,
      // $3 per million in, $15 per million out.
      costUsd: 3 + 7.5,
    });
  });

  it('counts a batched answer once per prompt, and reasoning tokens only once a server reports them', () => {
    const usage = new UsageRecorder();
    usage.started(0);
    usage.answered(200, 4, 40, 8, 200);
    expect(usage.summary()).not.toHaveProperty('reasoningTokens');
    usage.answered(100, 1, 10, 30, 300, 25);
    const summary = usage.summary();
    expect(summary.requests).toBe(5);
    expect([summary.latencyP50Ms, summary.latencyP95Ms]).toEqual([200, 200]);
    expect(summary.reasoningTokens).toBe(25);
    expect(summary.costUsd).toBeNull();
  });

  it('has no latencies and no rate before any answer', () => {
    const summary = new UsageRecorder().summary();
    expect([summary.latencyP50Ms, summary.latencyP95Ms, summary.seconds, summary.requestsPerSecond]).toEqual([
      null,
      null,
      0,
      0,
    ]);
  });
});
