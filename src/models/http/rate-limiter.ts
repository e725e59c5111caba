/**
 * Client-side rate limits for hosted APIs: requests and tokens per minute over a sliding 60 s window.
 * Tokens are counted when a response reports them, so the limit holds on average, not per request.
 */
export class RateLimiter {
  private readonly starts: number[] = [];
  private readonly tokens: Array<{ at: number; count: number }> = [];
  private tokenSum = 0;

  constructor(
    private readonly requestsPerMinute: number | undefined,
    private readonly tokensPerMinute: number | undefined,
  ) {}

  get active(): boolean {
    return Boolean(this.requestsPerMinute || this.tokensPerMinute);
  }

  /** Waits until one more request fits in the window, then counts it. */
  async take(): Promise<void> {
    for (;;) {
      const now = Date.now();
      this.expire(now);
      let waitMs = 0;
      if (this.requestsPerMinute && this.starts.length >= this.requestsPerMinute)
        waitMs = this.starts[0] + 60_000 - now;
      if (this.tokensPerMinute && this.tokenSum >= this.tokensPerMinute && this.tokens.length) {
        waitMs = Math.max(waitMs, this.tokens[0].at + 60_000 - now);
      }
      if (waitMs <= 0) {
        if (this.requestsPerMinute) this.starts.push(now);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  used(count: number): void {
    if (!this.tokensPerMinute || count <= 0) return;
    this.tokens.push({ at: Date.now(), count });
    this.tokenSum += count;
  }

  private expire(now: number): void {
    while (this.starts.length && this.starts[0] + 60_000 <= now) this.starts.shift();
    while (this.tokens.length && this.tokens[0].at + 60_000 <= now)
      this.tokenSum -= this.tokens.shift()?.count ?? 0;
  }
}
