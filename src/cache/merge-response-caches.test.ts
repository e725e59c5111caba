import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeResponseCaches } from './merge-response-caches.js';
import { SqliteResponseCache } from './sqlite-response-cache.js';

function store(file: string, entries: Record<string, string>): void {
  const cache = new SqliteResponseCache(file);
  for (const [key, value] of Object.entries(entries)) cache.put(key, value);
  cache.close();
}

describe('mergeResponseCaches', () => {
  it('adds every answer of the sources to the target, keeping those it holds, and skips absent sources', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-cache-merge-'));
    const target = path.join(dir, 'merged', 'responses.sqlite');
    const first = path.join(dir, 'first.sqlite');
    const second = path.join(dir, 'second.sqlite');
    store(target, { k0: 'kept' });
    store(first, { k0: 'other', k1: 'one', k2: 'two' });
    store(second, { k2: 'two again', k3: 'three' });
    expect(mergeResponseCaches(target, [first, second, path.join(dir, 'absent.sqlite')])).toBe(3);
    const merged = new SqliteResponseCache(target);
    expect(['k0', 'k1', 'k2', 'k3', 'k4'].map((key) => merged.get(key))).toEqual([
      'kept',
      'one',
      'two',
      'three',
      undefined,
    ]);
    merged.close();
    // Again: nothing new.
    expect(mergeResponseCaches(target, [first, second])).toBe(0);
  });

  it('creates the target when it does not exist', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-cache-merge-'));
    const source = path.join(dir, 'source.sqlite');
    store(source, { a: '1' });
    const target = path.join(dir, 'new', 'responses.sqlite');
    expect(mergeResponseCaches(target, [source])).toBe(1);
    const merged = new SqliteResponseCache(target);
    expect(merged.get('a')).toBe('1');
    merged.close();
  });
});

describe('mergeResponseCaches with conflicting answers', () => {
  it('keeps the first answer of a key and says how many of a source differ (never silently)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-cache-merge-'));
    const target = path.join(dir, 'merged', 'responses.sqlite');
    const first = path.join(dir, 'first.sqlite');
    const second = path.join(dir, 'second.sqlite');
    store(first, { k0: 'a', k1: 'b', k2: 'c' });
    store(second, { k0: 'a', k1: 'B', k2: 'C', k3: 'd' });
    const conflicts: Array<[string, number]> = [];
    expect(
      mergeResponseCaches(target, [first, second], {
        onConflict: (source, count) => conflicts.push([source, count]),
      }),
    ).toBe(4);
    expect(conflicts).toEqual([[second, 2]]);
    const merged = new SqliteResponseCache(target);
    expect(['k0', 'k1', 'k2', 'k3'].map((key) => merged.get(key))).toEqual(['a', 'b', 'c', 'd']);
    merged.close();
  });
});
