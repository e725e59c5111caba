/**
 * At most `limit` requests use the engine at once; up to `queue` more wait in arrival order, and
 * beyond that a request is refused (the server answers 429, which HTTP clients retry). The engine
 * runs one call at a time anyway, so the limit bounds latency and memory rather than adding speed.
 * A waiting request whose `signal` aborts (its client went away) leaves the queue without running.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    readonly queue: number,
  ) {}

  /**
   * Runs `task` when a slot frees up; undefined when the queue is full (nothing is run). Rejects with
   * the signal's reason, without running `task`, when the signal aborts while it waits.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<{ value: T } | undefined> {
    signal?.throwIfAborted();
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.queue) return undefined;
      await new Promise<void>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          const index = this.waiting.indexOf(start);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', leave, { once: true });
        this.waiting.push(start);
      });
    } else this.running++;
    try {
      return { value: await task() };
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `running` stays as it is.
      if (next) next();
      else this.running--;
    }
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }
}
