import { createHash } from 'node:crypto';
import { canonicalJson, type ResponseCache } from '../cache/response-cache.js';
import type {
  Answer,
  AnyVersionBackend,
  CallOptions,
  GenerateRequest,
  LoglikelihoodRequest,
  LoglikelihoodResult,
  ModelBackend,
  RollingRequest,
} from './backend.js';
import {
  CAPABILITY_METHODS,
  type Generation,
  type GenerationLogprobs,
  hasGenerationLogprobs,
  hasUsage,
  isRequestError,
  toCurrentSpec,
  type UsageReporting,
} from './backend.js';

/**
 * `--use_cache` for in-process backends (dummy, gguf), lm-eval's CachingLM: answers are looked up by the
 * canonical request plus the model's identity (backend, name, revision or file sha256, model args), only
 * misses reach the model, and each call's answers are stored when the call returns. Served backends keep
 * their cache inside the HTTP client instead, where it can store each response as it arrives. Sampled
 * generations are never cached, and neither are failed requests. The wrapper is itself a backend of the
 * spec (v2; a v1 backend is adapted first), declaring what the wrapped one declares, and runs the same
 * conformance suite.
 */
export function withResponseCache(
  given: AnyVersionBackend,
  cache: ResponseCache,
  modelArgs: Record<string, unknown>,
): ModelBackend {
  const backend = toCurrentSpec(given);
  const info = backend.info();
  const identity = {
    backend: backend.name,
    name: info.name,
    revision: info.revision ?? null,
    sha256: info.sha256 ?? null,
    modelArgs,
  };
  const keyOf = (method: string, request: unknown) =>
    createHash('sha256').update(canonicalJson({ identity, method, request })).digest('hex');

  /** Requests this wrapper answered itself: the wrapped backend's usage never sees them. */
  let answeredFromCache = 0;

  /**
   * One call: hits answered here, the misses sent to the wrapped backend in one call that carries the
   * caller's options (its abort signal), its progress counted after the hits.
   */
  async function cached<Q, A>(
    method: string,
    options: CallOptions<Q>,
    send: (options: CallOptions<Q>) => Promise<Answer<A>[]>,
    cacheable: (request: Q) => boolean = () => true,
  ): Promise<Answer<A>[]> {
    const { requests, onProgress } = options;
    const answers: Answer<A>[] = new Array(requests.length);
    const missIndex: number[] = [];
    const keys = requests.map((request) => (cacheable(request) ? keyOf(method, request) : undefined));
    requests.forEach((_, i) => {
      const key = keys[i];
      const hit = key === undefined ? undefined : cache.get(key);
      if (hit === undefined) missIndex.push(i);
      else answers[i] = JSON.parse(hit) as A;
    });
    const hits = requests.length - missIndex.length;
    answeredFromCache += hits;
    if (hits > 0) onProgress?.(hits);
    if (missIndex.length > 0) {
      const fresh = await send({
        ...options,
        requests: missIndex.map((i) => requests[i]),
        onProgress: onProgress && ((done) => onProgress(hits + done)),
      });
      missIndex.forEach((i, j) => {
        answers[i] = fresh[j];
        const key = keys[i];
        if (key !== undefined && !isRequestError(fresh[j])) cache.put(key, JSON.stringify(fresh[j]));
      });
    }
    return answers;
  }

  const wrapped: ModelBackend & Partial<GenerationLogprobs> = {
    specificationVersion: 'v2',
    name: backend.name,
    capabilities: backend.capabilities,
    ...(backend.concurrency !== undefined ? { concurrency: backend.concurrency } : {}),
    loglikelihood: (options) =>
      cached<LoglikelihoodRequest, LoglikelihoodResult>('loglikelihood', options, (misses) =>
        backend.loglikelihood(misses),
      ),
    loglikelihoodRolling: (options) =>
      cached<RollingRequest, number>('loglikelihood_rolling', options, (misses) =>
        backend.loglikelihoodRolling(misses),
      ),
    generate: (options) =>
      cached<GenerateRequest, string>(
        'generate_until',
        options,
        (misses) => backend.generate(misses),
        (request) => !request.doSample,
      ),
    info: () => backend.info(),
    close: async () => {
      await backend.close?.();
      cache.close();
    },
  };
  // Generations with their tokens' log-probabilities are cached apart from the bare texts: a hit must
  // give back what this method returns, logprobs included.
  if (hasGenerationLogprobs(backend)) {
    wrapped.generateWithLogprobs = (options) =>
      cached<GenerateRequest, Generation>(
        'generate_until_with_logprobs',
        options,
        (misses) => backend.generateWithLogprobs(misses),
        (request) => !request.doSample,
      );
  }
  // Usage counts the requests answered here as cached ones, as a served backend's own cache does.
  if (hasUsage(backend)) {
    (wrapped as ModelBackend & UsageReporting).usage = () => {
      const usage = backend.usage();
      return {
        ...usage,
        requests: usage.requests + answeredFromCache,
        cachedRequests: usage.cachedRequests + answeredFromCache,
      };
    };
  }
  // The other optional capabilities (chat templates, token-level scoring) pass straight through, as the
  // wrapped backend declares them: the wrapper declares exactly the same capabilities.
  for (const capability of ['tokenScoring', 'chatTemplate'] as const) {
    if (backend.capabilities[capability] !== true) continue;
    for (const method of CAPABILITY_METHODS[capability]) {
      const original = (backend as unknown as Record<string, unknown>)[method];
      if (typeof original === 'function')
        (wrapped as unknown as Record<string, unknown>)[method] = original.bind(backend);
    }
  }
  return wrapped;
}
