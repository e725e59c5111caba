/**
 * Per-request wall times, for each task's latency (mean, p50, p95 of its own requests). A backend answers
 * a whole list of requests in one call and reports progress as answers arrive, so the clock here stamps
 * each answer when the progress sink says it is done: a request's time is the wall time from the answer
 * before it (or the start of the call) to its own. For a backend that answers one request at a time
 * (dummy, GGUF, an HTTP server with num_concurrent=1) that is the request's own time; requests reported
 * together (one HTTP call carrying several prompts) each get the whole interval; with num_concurrent > 1
 * answers overlap, and the times are their spacing. Under a latency cap (--max_latency_s) each request
 * is sent and timed alone (latency-cap.ts), and those exact times are used instead of this clock's.
 * docs/ARCHITECTURE.md says the same for readers.
 */
import type { TaskLatency } from '../results/results-file.js';
import type { Responses } from './responses.js';

export interface AnswerClock {
  /** Wrap of the backend's progress sink: stamps answers `[previous done, done)` now. */
  progress(done: number): void;
  /** Milliseconds each request (by position in the call) took; call after the backend returned. */
  finish(): Float64Array;
}

export function answerClock(requests: number, now: () => number = () => performance.now()): AnswerClock {
  const started = now();
  const answeredAt = new Float64Array(requests);
  let reported = 0;
  return {
    progress(done) {
      const at = now();
      for (let i = reported; i < Math.min(done, requests); i++) answeredAt[i] = at;
      reported = Math.max(reported, Math.min(done, requests));
    },
    finish() {
      const end = now();
      // Answers the backend never reported arrived by the time it returned.
      for (let i = reported; i < requests; i++) answeredAt[i] = end;
      const times = new Float64Array(requests);
      let intervalStart = started;
      let previous = started;
      for (let i = 0; i < requests; i++) {
        // Answers stamped at one instant share the interval that ended there.
        if (answeredAt[i] !== previous) {
          intervalStart = previous;
          previous = answeredAt[i];
        }
        times[i] = answeredAt[i] - intervalStart;
      }
      return times;
    },
  };
}

/** A task's request latency (the results contract's type, as `request_stats.by_task` writes it). */
export type { TaskLatency };

/** Nearest-rank percentile (as the HTTP usage summary computes its p50/p95). */
function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export function summarizeLatency(times: ArrayLike<number>): TaskLatency {
  if (times.length === 0) return { requests: 0, mean_ms: null, p50_ms: null, p95_ms: null };
  const sorted = Float64Array.from(times).sort();
  let sum = 0;
  for (const time of sorted) sum += time;
  return {
    requests: sorted.length,
    mean_ms: sum / sorted.length,
    p50_ms: percentile(sorted, 0.5),
    p95_ms: percentile(sorted, 0.95),
  };
}

/**
 * Each task's latency over the requests it sent: every request with answer times (`latencyMs`, one per
 * backend request that answered it; a backend request shared by identical requests counts for each of
 * them). Tasks whose requests a stage answered without the clock (token-window perplexity) have none.
 */
export function taskLatency(responses: Responses): Record<string, TaskLatency> {
  const byTask: Record<string, TaskLatency> = {};
  for (const [task, answers] of responses) {
    const { latencyMs, latencyMsByCopy } = answers;
    const size = Math.max(latencyMs?.length ?? 0, latencyMsByCopy?.length ?? 0);
    // latencyOf's times, request by request, read in place: a task has tens of thousands of requests.
    const times: number[] = [];
    for (let id = 0; id < size; id++) {
      const byCopy = latencyMsByCopy?.[id];
      if (byCopy) {
        for (const time of byCopy) times.push(time);
        continue;
      }
      const time = latencyMs?.[id];
      if (time !== undefined && !Number.isNaN(time)) times.push(time);
    }
    if (times.length) byTask[task] = summarizeLatency(times);
  }
  return byTask;
}
