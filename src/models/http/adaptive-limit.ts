/**
 * A semaphore whose size adapts, AIMD-style: halve on overload (429/503), grow by one after a full
 * window of successes, never above the configured `num_concurrent` or below 1. Overloads reported by
 * requests that started before the last decrease are ignored, so one burst of 64 concurrent 429s halves
 * the limit once, not 64 times.
 */
export class AdaptiveLimit {
  private current: number;
  private active = 0;
  private successes = 0;
  private epoch = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly max: number) {
    this.current = max;
  }

  get limit(): number {
    return this.current;
  }

  /** Resolves with the epoch the permit was granted in; pass it back to `overloaded`. */
  async acquire(): Promise<number> {
    if (this.active < this.current) {
      this.active++;
      return this.epoch;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.epoch;
  }

  release(): void {
    const next = this.active <= this.current ? this.waiters.shift() : undefined;
    // The freed permit passes straight to a waiter, so `active` stays the same.
    if (next) next();
    else this.active--;
  }

  succeeded(): void {
    if (this.current >= this.max) return;
    if (++this.successes >= this.current) {
      this.successes = 0;
      this.current++;
      this.wakeOne();
    }
  }

  overloaded(epoch: number): void {
    if (epoch !== this.epoch) return;
    this.epoch++;
    this.successes = 0;
    this.current = Math.max(1, Math.floor(this.current / 2));
  }

  private wakeOne(): void {
    if (this.active < this.current) {
      const next = this.waiters.shift();
      if (next) {
        this.active++;
        next();
      }
    }
  }
}
