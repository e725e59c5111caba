import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runResponseCacheConformance } from '../testing/response-cache-conformance.js';
import { MemoryResponseCache } from './memory-response-cache.js';
import { cacheKey, canonicalJson } from './response-cache.js';
import { SqliteResponseCache } from './sqlite-response-cache.js';

runResponseCacheConformance({
  name: 'sqlite',
  create: () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-cache-')), 'cache.sqlite');
    return { cache: new SqliteResponseCache(file), reopen: () => new SqliteResponseCache(file) };
  },
});

runResponseCacheConformance({
  name: 'memory',
  create: () => {
    const cache = new MemoryResponseCache();
    return { cache, reopen: () => cache };
  },
});

describe('cache keys', () => {
  it('ignore key order and undefined fields, and depend on model, endpoint and payload', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
    const key = cacheKey('m', '/v1/completions', { prompt: 'x', echo: true });
    expect(cacheKey('m', '/v1/completions', { echo: true, prompt: 'x' })).toBe(key);
    expect(cacheKey('m2', '/v1/completions', { echo: true, prompt: 'x' })).not.toBe(key);
    expect(cacheKey('m', '/v1/chat/completions', { echo: true, prompt: 'x' })).not.toBe(key);
    expect(cacheKey('m', '/v1/completions', { echo: true, prompt: 'y' })).not.toBe(key);
  });
});
