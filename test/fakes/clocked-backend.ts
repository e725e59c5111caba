/**
 * A generation backend on a clock: each prompt is answered with its last word (with a leading space), at
 * once, or after `slowMs` for a prompt containing "slow" (never, by default: only an abort ends it), and a
 * prompt containing "fail" fails for good when `failing` is set (an HTTP 500 RequestError). It stops when
 * the call's signal aborts, as a backend that supports cancellation does, and records what it was asked,
 * what it aborted and how many calls it had in flight at once. For the latency cap (`maxLatencyS`) and the
 * runs it leaves partial.
 */
import { type GenerateCallOptions, type ModelBackend, RequestError } from '../../src/models/backend.js';

export interface ClockedOptions {
  /** The backend's name (the run's model folder); default `clocked`. */
  name?: string;
  /** How many calls the run may have in flight at once (ModelBackend.concurrency). */
  concurrency?: number;
  /** How long a "slow" prompt takes; default: until the call is aborted. */
  slowMs?: number;
  /** Whether a prompt containing "fail" fails (an HTTP 500). */
  failing?: boolean;
}

export class ClockedBackend implements ModelBackend {
  readonly specificationVersion = 'v2';
  readonly name: string;
  readonly concurrency?: number;
  readonly capabilities = {
    loglikelihood: false,
    loglikelihoodRolling: false,
    generate: true,
    tokenScoring: false,
    generationLogprobs: false,
    chatTemplate: false,
    usage: false,
  };
  /** Every call's prompts, in order. */
  calls: string[][] = [];
  /** The prompts whose call was aborted. */
  aborted: string[] = [];
  inFlight = 0;
  /** The most calls in flight at once. */
  peak = 0;

  constructor(private readonly options: ClockedOptions = {}) {
    this.name = options.name ?? 'clocked';
    if (options.concurrency !== undefined) this.concurrency = options.concurrency;
  }

  async generate({ requests, abortSignal }: GenerateCallOptions) {
    this.calls.push(requests.map((request) => request.context));
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      return await Promise.all(
        requests.map(
          (request) =>
            new Promise<string | RequestError>((resolve, reject) => {
              if (this.options.failing && request.context.includes('fail'))
                return resolve(new RequestError('HTTP 500: boom', 'HTTP 500'));
              const answer = ` ${request.context.split(' ').at(-1)}`;
              const slow = request.context.includes('slow');
              const timer =
                !slow || this.options.slowMs !== undefined
                  ? setTimeout(() => resolve(answer), slow ? this.options.slowMs : 0)
                  : undefined;
              abortSignal?.addEventListener('abort', () => {
                clearTimeout(timer);
                this.aborted.push(request.context);
                reject(abortSignal?.reason);
              });
            }),
        ),
      );
    } finally {
      this.inFlight--;
    }
  }

  async loglikelihood(): Promise<never> {
    throw new Error('generation only');
  }

  async loglikelihoodRolling(): Promise<never> {
    throw new Error('generation only');
  }

  info() {
    return { name: this.name };
  }
}
