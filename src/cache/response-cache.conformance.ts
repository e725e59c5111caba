import { describe, expect, it } from 'vitest';
import type { ResponseCache } from './response-cache.js';

/** The suite every ResponseCache store runs. `reopen` gives a second handle on the same storage. */
export function runResponseCacheConformance(
  name: string,
  create: () => { cache: ResponseCache; reopen: () => ResponseCache },
): void {
  describe(`ResponseCache conformance: ${name}`, () => {
    it('misses, then returns exactly what was put; a later put replaces', () => {
      const { cache } = create();
      expect(cache.get('k')).toBeUndefined();
      cache.put('k', '{"a":"é\\u0000"}');
      expect(cache.get('k')).toBe('{"a":"é\\u0000"}');
      cache.put('k', 'second');
      expect(cache.get('k')).toBe('second');
      cache.close();
    });

    it('keeps entries across handles', () => {
      const { cache, reopen } = create();
      for (let i = 0; i < 100; i++) cache.put(`key-${i}`, `value-${i}`);
      const other = reopen();
      expect(other.get('key-0')).toBe('value-0');
      expect(other.get('key-99')).toBe('value-99');
      other.close();
      cache.close();
    });
  });
}
