import { describe, expect, it } from 'vitest';
import { answerClock, summarizeLatency, taskLatency } from './request-timing.js';
import type { Responses } from './responses.js';

/** A clock the test moves by hand. */
function manualClock(start = 100) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('answerClock', () => {
  it('one answer at a time: each request gets the time since the answer before it', () => {
    const time = manualClock();
    const clock = answerClock(3, time.now);
    for (const [done, ms] of [
      [1, 5],
      [2, 2],
      [3, 9],
    ]) {
      time.advance(ms);
      clock.progress(done);
    }
    expect([...clock.finish()]).toEqual([5, 2, 9]);
  });

  it('answers reported together share the interval; unreported answers end when the call returns', () => {
    const time = manualClock();
    const clock = answerClock(5, time.now);
    time.advance(8);
    clock.progress(3); // one HTTP call with three prompts
    time.advance(4);
    // The backend never reports the last two: they arrived by the time it returned.
    expect([...clock.finish()]).toEqual([8, 8, 8, 4, 4]);
  });

  it('ignores progress past the request count and going backwards', () => {
    const time = manualClock();
    const clock = answerClock(2, time.now);
    time.advance(3);
    clock.progress(5);
    clock.progress(1);
    expect([...clock.finish()]).toEqual([3, 3]);
  });
});

describe('summarizeLatency and taskLatency', () => {
  it('mean and nearest-rank percentiles per task, over its own requests only', () => {
    // Nearest rank of 20 values: p50 is the 10th smallest, p95 the 19th.
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(summarizeLatency(values)).toEqual({ requests: 20, mean_ms: 10.5, p50_ms: 10, p95_ms: 19 });
    expect(summarizeLatency([])).toEqual({ requests: 0, mean_ms: null, p50_ms: null, p95_ms: null });
    // Per task, its requests' answers by request id; task c's request has no answer times.
    const responses: Responses = new Map([
      ['a', { resps: [[], []], latencyMs: Float64Array.of(1, 3) }],
      ['b', { resps: [[]], latencyMs: Float64Array.of(Number.NaN), latencyMsByCopy: [[10, 30]] }],
      ['c', { resps: [[]] }],
    ]);
    expect(taskLatency(responses)).toEqual({
      a: { requests: 2, mean_ms: 2, p50_ms: 1, p95_ms: 3 },
      b: { requests: 2, mean_ms: 20, p50_ms: 10, p95_ms: 30 },
    });
  });
});
