import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/fakes/openai-server.js';
import { MemoryResponseCache } from '../cache/memory-response-cache.js';
import { runBackendConformance } from '../testing/backend-conformance.js';
import {
  type Answer,
  checkBackendSpec,
  type GenerateCallOptions,
  type GenerateRequest,
  hasGenerationLogprobs,
  type LoglikelihoodCallOptions,
  type LoglikelihoodResult,
  type ModelBackend,
  RequestError,
  type RollingCallOptions,
} from './backend.js';
import { withResponseCache } from './caching-backend.js';
import { DummyBackend } from './dummy/dummy-backend.js';
import { createHttpBackend } from './http/create.js';

/** The dummy model, except that a request whose text holds `marker` fails in its own slot. */
class FailingDummy extends DummyBackend {
  constructor(private readonly marker: string) {
    super({ seed: 7 });
  }
  private fail<T>(texts: string[], answers: T[]): Answer<T>[] {
    return answers.map((answer, i) =>
      texts[i].includes(this.marker) ? new RequestError(`request ${i} poisoned`, 'HTTP 500') : answer,
    );
  }
  override async loglikelihood(options: LoglikelihoodCallOptions) {
    const { requests } = options;
    const answers = await super.loglikelihood(options);
    return this.fail(
      requests.map((request) => request.context + request.continuation),
      answers,
    ) as LoglikelihoodResult[];
  }
  override async loglikelihoodRolling(options: RollingCallOptions) {
    const { requests } = options;
    const answers = await super.loglikelihoodRolling(options);
    return this.fail(
      requests.map((request) => request.text),
      answers,
    ) as number[];
  }
  override async generate(options: GenerateCallOptions) {
    const { requests } = options;
    const answers = await super.generate(options);
    return this.fail(
      requests.map((request) => request.context),
      answers,
    ) as string[];
  }
}

runBackendConformance({
  name: 'withResponseCache(dummy)',
  create: () => withResponseCache(new DummyBackend({ seed: 7 }), new MemoryResponseCache(), { seed: 7 }),
  createFailing: (marker) =>
    withResponseCache(new FailingDummy(marker), new MemoryResponseCache(), { seed: 7 }),
});

// A backend with every optional capability but a chat template (token scoring, generation logprobs,
// usage): the wrapper must keep each one.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
const served = (at: TestServer = server) =>
  createHttpBackend('local-completions', {
    // The server's /tokenize, named rather than left to lm-eval's default tokenizer_backend=auto.
    tokenizer_backend: 'remote',
    model: 'test',
    base_url: at.completionsUrl,
    tokenized_requests: true,
    num_concurrent: 2,
    max_retries: 2,
    retry_backoff: 0.001,
  });
const poisonedServers: TestServer[] = [];
afterAll(async () => {
  for (const started of poisonedServers) await started.close();
});

runBackendConformance({
  name: 'withResponseCache(local-completions with token ids)',
  create: () => withResponseCache(served(), new MemoryResponseCache(), {}),
  // A server of the same shape that fails every request whose token ids spell the marker.
  createFailing: async (marker) => {
    const poisoned = await startTestServer({ failBodiesContaining: { text: marker, message: 'poisoned' } });
    poisonedServers.push(poisoned);
    return withResponseCache(served(poisoned), new MemoryResponseCache(), {});
  },
});

describe('withResponseCache as a backend of the same spec', () => {
  it('declares exactly what the wrapped backend declares, and has the methods of each', async () => {
    for (const inner of [new DummyBackend(), served()] as ModelBackend[]) {
      const wrapped = withResponseCache(inner, new MemoryResponseCache(), {});
      expect(wrapped.specificationVersion).toBe('v2');
      expect(wrapped.capabilities).toEqual(inner.capabilities);
      expect(() => checkBackendSpec(wrapped, 'wrapped')).not.toThrow();
      await wrapped.close?.();
    }
  });

  it('caches generations with their logprobs apart from bare texts, and never a failed request', async () => {
    const cache = new MemoryResponseCache();
    const wrapped = withResponseCache(served(), cache, {});
    if (!hasGenerationLogprobs(wrapped)) throw new Error('local-completions declares generationLogprobs');
    const request = generation(false);
    // Completions requests only: a token-id generation prompt also asks /tokenize (api_models.py
    // TemplateAPI.generate_until encodes the context when tokenized_requests).
    const modelRequests = () => [...server.stats.receivedBodies.values()].reduce((a, b) => a + b, 0);
    const before = modelRequests();
    const [first] = await wrapped.generateWithLogprobs({ requests: [request] });
    const sent = modelRequests() - before;
    expect(sent).toBe(1);
    const [again] = await wrapped.generateWithLogprobs({ requests: [request] });
    expect(again).toEqual(first);
    expect(modelRequests() - before).toBe(1);
    // The bare text is keyed apart: its first call reaches the model.
    const [text] = await wrapped.generate({ requests: [request] });
    expect(text).toBe((first as { text: string }).text);
    expect(modelRequests() - before).toBe(2);

    await wrapped.close?.();

    const flaky = withResponseCache(new FailingDummy('poison'), cache, {});
    const poisoned = { context: 'poison', continuation: ' x' };
    expect((await flaky.loglikelihood({ requests: [poisoned] }))[0]).toBeInstanceOf(RequestError);
    // Not cached: the same request answers once the model does.
    const healthy = withResponseCache(new DummyBackend({ seed: 7 }), cache, {});
    const [answer] = await healthy.loglikelihood({ requests: [poisoned] });
    expect(answer).toEqual((await new DummyBackend({ seed: 7 }).loglikelihood({ requests: [poisoned] }))[0]);
  });
});

/** The dummy model, counting what reaches it. */
class CountingBackend extends DummyBackend {
  sent = 0;
  override async loglikelihood(options: LoglikelihoodCallOptions) {
    const { requests } = options;
    this.sent += requests.length;
    return super.loglikelihood(options);
  }
  override async generate(options: GenerateCallOptions) {
    const { requests } = options;
    this.sent += requests.length;
    return super.generate(options);
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
    const direct = await new DummyBackend({ seed: 5 }).loglikelihood({
      requests: [...requests, { context: 'e', continuation: ' f' }],
    });
    expect(await withResponseCache(first, cache, { seed: 5 }).loglikelihood({ requests })).toEqual(
      direct.slice(0, 2),
    );
    expect(first.sent).toBe(2);
    const second = new CountingBackend({ seed: 5 });
    const again = await withResponseCache(second, cache, { seed: 5 }).loglikelihood({
      requests: [...requests, { context: 'e', continuation: ' f' }],
    });
    expect(again).toEqual(direct);
    expect(second.sent).toBe(1);
  });

  it('keys on the model: other model args miss', async () => {
    const cache = new MemoryResponseCache();
    await withResponseCache(new DummyBackend({ seed: 1 }), cache, { seed: 1 }).loglikelihood({
      requests: [{ context: 'a', continuation: ' b' }],
    });
    const other = new CountingBackend({ seed: 2 });
    await withResponseCache(other, cache, { seed: 2 }).loglikelihood({
      requests: [{ context: 'a', continuation: ' b' }],
    });
    expect(other.sent).toBe(1);
  });

  it('never caches sampled generations', async () => {
    const cache = new MemoryResponseCache();
    await withResponseCache(new DummyBackend(), cache, {}).generate({
      requests: [generation(true), generation(false)],
    });
    const counting = new CountingBackend();
    await withResponseCache(counting, cache, {}).generate({
      requests: [generation(true), generation(false)],
    });
    expect(counting.sent).toBe(1);
  });
});
