/**
 * `maxLatencyS`, the per-request latency cap, on any backend. With a cap each request goes to the
 * backend alone, at most `backend.concurrency` at a time (so a request's time is its own, not a queue's),
 * and one not answered within the cap is aborted through its call's AbortSignal (backends that can stop a
 * call do; the answer of one that cannot is ignored). Its place holds a LatencyTimeout: the doc it belongs
 * to is timed out, neither wrong nor an error, and counts in no metric (score.ts, aggregate.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AssayError } from '../errors.js';
import type { Answer, ProgressSink } from '../models/backend.js';

/** Stands where an answer would be when the request took longer than the cap. */
export class LatencyTimeout {
  constructor(
    /** The cap it went over, in seconds. */
    readonly maxLatencyS: number,
  ) {}

  /** How the sample log writes it in `resps`. */
  toJSON(): { timed_out: true; max_latency_s: number } {
    return { timed_out: true, max_latency_s: this.maxLatencyS };
  }
}

export function isLatencyTimeout(value: unknown): value is LatencyTimeout {
  return value instanceof LatencyTimeout;
}

/** The reason given to the AbortSignal of a request that went over the cap. */
export class LatencyCapExceeded extends Error {
  constructor(seconds: number) {
    super(`no answer within ${seconds} s (\`maxLatencyS\`)`);
    this.name = 'LatencyCapExceeded';
  }
}

/** After aborting a call, how long to wait for the backend to let go of it before sending the next. */
const RELEASE_MS = 1000;

/**
 * Sends each request in its own call, at most `concurrency` in flight, each against the clock. `call`
 * answers one request (an array of one). A call that throws before its deadline stops everything, as an
 * uncapped call would; one that settles after its deadline is ignored.
 */
export async function sendCapped<R, A>(
  requests: R[],
  call: (request: R, abortSignal: AbortSignal) => Promise<Answer<A>[]>,
  options: {
    maxLatencyS: number;
    concurrency: number;
    progress?: ProgressSink;
    backend: string;
    /**
     * Filled with each request's own wall time in ms (by position), from its call to its answer, or to
     * its deadline for one that timed out. Requests here are timed one by one, so these are exact, where
     * a batched call's progress stamps are not (answers in flight together finish out of order).
     */
    timesMs?: Float64Array;
  },
): Promise<Array<Answer<A> | LatencyTimeout>> {
  const limitMs = options.maxLatencyS * 1000;
  const answers = new Array<Answer<A> | LatencyTimeout>(requests.length);
  let next = 0;
  let done = 0;
  const timed = async (request: R, index: number): Promise<Answer<A>[] | LatencyTimeout> => {
    const started = performance.now();
    const stamp = () => {
      if (options.timesMs) options.timesMs[index] = performance.now() - started;
    };
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limitMs);
    });
    const pending = call(request, controller.signal);
    try {
      const first = await Promise.race([pending, deadline]);
      stamp();
      if (first !== 'late') return first;
    } finally {
      clearTimeout(timer);
    }
    controller.abort(new LatencyCapExceeded(options.maxLatencyS));
    // Whatever it settles with now is not an answer; wait (briefly) until the backend is free again.
    await Promise.race([pending.then(noop, noop), sleep(Math.min(RELEASE_MS, limitMs))]);
    return new LatencyTimeout(options.maxLatencyS);
  };
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const index = next++;
      const answer = await timed(requests[index], index);
      if (answer instanceof LatencyTimeout) {
        answers[index] = answer;
      } else {
        if (answer.length !== 1) {
          throw new AssayError(
            'backend_error',
            `model ${options.backend} returned ${answer.length} answers for 1 request`,
            { exitCode: 1 },
          );
        }
        answers[index] = answer[0];
      }
      done++;
      options.progress?.(done);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, requests.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return answers;
}

function noop(): void {}
