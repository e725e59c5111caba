/**
 * The conformance suite of the response-cache seam (`ResponseCache`), shipped as `assay/testing`: the
 * SQLite and in-memory stores run it, and so can any store a program brings.
 */
import { describe, expect, it } from 'vitest';
import type { ResponseCache } from '../cache/response-cache.js';

export type ResponseCacheConformanceTest = 'get-put' | 'exact-keys' | 'across-handles';

export interface ResponseCacheConformanceOptions {
  name: string;
  /** A fresh, empty store per test; `reopen` gives a second handle on the same storage. */
  create: () => { cache: ResponseCache; reopen: () => ResponseCache };
}

export function runResponseCacheConformance(options: ResponseCacheConformanceOptions): void {
  const check = (test: ResponseCacheConformanceTest, title: string, body: () => void) =>
    it(`${test}: ${title}`, body);

  describe(`ResponseCache conformance: ${options.name}`, () => {
    check('get-put', 'misses, then returns exactly what was put; a later put replaces', () => {
      const { cache } = options.create();
      expect(cache.get('k')).toBeUndefined();
      cache.put('k', '{"a":"é\\u0000"}');
      expect(cache.get('k')).toBe('{"a":"é\\u0000"}');
      cache.put('k', 'second');
      expect(cache.get('k')).toBe('second');
      cache.close();
    });

    check('exact-keys', 'keys match exactly: no case folding, no prefixes, empty values kept', () => {
      const { cache } = options.create();
      const key = 'a'.repeat(64);
      cache.put(key, '');
      cache.put(`${key}b`, 'longer');
      expect(cache.get(key)).toBe('');
      expect(cache.get(`${key}b`)).toBe('longer');
      expect(cache.get(key.toUpperCase())).toBeUndefined();
      expect(cache.get(key.slice(1))).toBeUndefined();
      const big = 'x'.repeat(1 << 20);
      cache.put('big', big);
      expect(cache.get('big')).toBe(big);
      cache.close();
    });

    check('across-handles', 'keeps entries across handles', () => {
      const { cache, reopen } = options.create();
      for (let i = 0; i < 100; i++) cache.put(`key-${i}`, `value-${i}`);
      const other = reopen();
      expect(other.get('key-0')).toBe('value-0');
      expect(other.get('key-99')).toBe('value-99');
      other.close();
      cache.close();
    });
  });
}
