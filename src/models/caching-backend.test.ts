import { describe, expect, it } from 'vitest';
import { MemoryResponseCache } from '../cache/memory-response-cache.js';
import type { GenerateRequest, LoglikelihoodRequest } from './backend.js';
import { withResponseCache } from './caching-backend.js';
import { DummyBackend } from './dummy/dummy-backend.js';

/** The dummy model, counting what reaches it. */
class CountingBackend extends DummyBackend {
  sent = 0;
  override async loglikelihood(requests: LoglikelihoodRequest[]) {
    this.sent += requests.length;
    return super.loglikelihood(requests);
  }
  override async generate(requests: GenerateRequest[]) {
    this.sent += requests.length;
    return super.generate(requests);
  }
}

const generation = (doSample: boolean): GenerateRequest => ({
  context: 'Q: 2+2?\nA:',
  until: ['\n'],
  maxGenToks: 8,
  temperature: doSample ? 1 : 0,
  doSample,
  extra: {},
});

describe('withResponseCache (in-process backends)', () => {
  it('answers from the cache what was answered before, and sends only misses', async () => {
    const cache = new MemoryResponseCache();
    const first = new CountingBackend({ seed: 5 });
    const requests = [
      { context: 'a', continuation: ' b' },
      { context: 'c', continuation: ' d' },
    ];
    const direct = await new DummyBackend({ seed: 5 }).loglikelihood([
      ...requests,
      { context: 'e', continuation: ' f' },
    ]);
    expect(await withResponseCache(first, cache, { seed: 5 }).loglikelihood(requests)).toEqual(
      direct.slice(0, 2),
    );
    expect(first.sent).toBe(2);
    const second = new CountingBackend({ seed: 5 });
    const again = await withResponseCache(second, cache, { seed: 5 }).loglikelihood([
      ...requests,
      { context: 'e', continuation: ' f' },
    ]);
    expect(again).toEqual(direct);
    expect(second.sent).toBe(1);
  });

  it('keys on the model: other model args miss', async () => {
    const cache = new MemoryResponseCache();
    await withResponseCache(new DummyBackend({ seed: 1 }), cache, { seed: 1 }).loglikelihood([
      { context: 'a', continuation: ' b' },
    ]);
    const other = new CountingBackend({ seed: 2 });
    await withResponseCache(other, cache, { seed: 2 }).loglikelihood([{ context: 'a', continuation: ' b' }]);
    expect(other.sent).toBe(1);
  });

  it('never caches sampled generations', async () => {
    const cache = new MemoryResponseCache();
    await withResponseCache(new DummyBackend(), cache, {}).generate([generation(true), generation(false)]);
    const counting = new CountingBackend();
    await withResponseCache(counting, cache, {}).generate([generation(true), generation(false)]);
    expect(counting.sent).toBe(1);
  });
});
