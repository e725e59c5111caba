import type { UsageSummary } from '../backend.js';

export interface Prices {
  inputPerMillion?: number;
  outputPerMillion?: number;
}

/**
 * Latency and token counts per logical request (one prompt, possibly one of several in an HTTP request).
 * Latencies live in a growable Float64Array: 100,000 requests cost 800 kB, not 100,000 objects.
 */
export class UsageRecorder {
  private latencies = new Float64Array(1024);
  private count = 0;
  private cached = 0;
  private http = 0;
  private retries = 0;
  private failed = 0;
  private tokensIn = 0;
  private tokensOut = 0;
  /** Reasoning tokens the server reported; undefined until an answer carries the count. */
  private reasoningTokens: number | undefined;
  private firstStart: number | undefined;
  private lastEnd: number | undefined;

  constructor(private readonly prices: Prices = {}) {}

  started(at: number): void {
    if (this.firstStart === undefined || at < this.firstStart) this.firstStart = at;
  }

  answered(
    latencyMs: number,
    prompts: number,
    tokensIn: number,
    tokensOut: number,
    end: number,
    reasoningTokens?: number,
  ): void {
    for (let i = 0; i < prompts; i++) this.push(latencyMs);
    this.tokensIn += tokensIn;
    this.tokensOut += tokensOut;
    if (reasoningTokens !== undefined) this.reasoningTokens = (this.reasoningTokens ?? 0) + reasoningTokens;
    this.lastEnd = Math.max(this.lastEnd ?? end, end);
  }

  fromCache(prompts: number): void {
    this.cached += prompts;
  }

  sent(): void {
    this.http++;
  }

  retried(): void {
    this.retries++;
  }

  failedRequest(prompts: number): void {
    this.failed += prompts;
  }

  private push(value: number): void {
    if (this.count === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2);
      grown.set(this.latencies);
      this.latencies = grown;
    }
    this.latencies[this.count++] = value;
  }

  summary(): UsageSummary {
    const sorted = this.latencies.slice(0, this.count).sort();
    const percentile = (p: number) =>
      this.count ? sorted[Math.min(this.count - 1, Math.ceil(p * this.count) - 1)] : null;
    const seconds =
      this.firstStart !== undefined && this.lastEnd !== undefined
        ? (this.lastEnd - this.firstStart) / 1000
        : 0;
    const { inputPerMillion, outputPerMillion } = this.prices;
    const priced = inputPerMillion !== undefined || outputPerMillion !== undefined;
    return {
      requests: this.count + this.cached + this.failed,
      httpRequests: this.http,
      cachedRequests: this.cached,
      retries: this.retries,
      failedRequests: this.failed,
      seconds,
      requestsPerSecond: seconds > 0 ? this.count / seconds : 0,
      latencyP50Ms: percentile(0.5),
      latencyP95Ms: percentile(0.95),
      tokensIn: this.tokensIn,
      tokensOut: this.tokensOut,
      ...(this.reasoningTokens === undefined ? {} : { reasoningTokens: this.reasoningTokens }),
      costUsd: priced
        ? (this.tokensIn * (inputPerMillion ?? 0) + this.tokensOut * (outputPerMillion ?? 0)) / 1_000_000
        : null,
    };
  }
}
