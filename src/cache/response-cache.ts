import { createHash } from 'node:crypto';

/**
 * The response cache seam: raw response bodies keyed by the canonical request. Stores are synchronous
 * so that a response is on disk before the next event-loop turn, and a SIGKILL loses only what was in
 * flight. Every store runs `runResponseCacheConformance`.
 */
export interface ResponseCache {
  get(key: string): string | undefined;
  put(key: string, value: string): void;
  close(): void;
}

/** JSON with object keys sorted at every depth, so equal requests give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The key of one HTTP request: model, endpoint path and payload. The host is left out so that replicas
 * behind several base URLs share answers, and the API key is never part of it.
 */
export function cacheKey(model: string, endpoint: string, payload: unknown): string {
  return createHash('sha256').update(canonicalJson({ endpoint, model, payload })).digest('hex');
}
