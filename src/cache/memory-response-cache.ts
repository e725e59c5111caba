import type { ResponseCache } from './response-cache.js';

/** For library callers and tests that want cache semantics without a file. */
export class MemoryResponseCache implements ResponseCache {
  private readonly entries = new Map<string, string>();

  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  put(key: string, value: string): void {
    this.entries.set(key, value);
  }

  close(): void {}
}
