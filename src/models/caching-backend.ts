import { createHash } from 'node:crypto';
import { canonicalJson, type ResponseCache } from '../cache/response-cache.js';
import type {
  Answer,
  CallOptions,
  GenerateRequest,
  LoglikelihoodRequest,
  LoglikelihoodResult,
  ModelBackend,
  ProgressSink,
  RollingRequest,
} from './backend.js';
import { isRequestError } from './backend.js';

/**
 * `--use_cache` for in-process backends (dummy, gguf), lm-eval's CachingLM: answers are looked up by the
 * canonical request plus the model's identity (backend, name, revision or file sha256, model args), only
 * misses reach the model, and each call's answers are stored when the call returns. Served backends keep
 * their cache inside the HTTP client instead, where it can store each response as it arrives. Sampled
 * generations are never cached, and neither are failed requests.
 */
export function withResponseCache(
  backend: ModelBackend,
  cache: ResponseCache,
  modelArgs: Record<string, unknown>,
): ModelBackend {
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

  async function cached<Q, A>(
    method: string,
    requests: Q[],
    send: (misses: Q[], progress?: ProgressSink) => Promise<Answer<A>[]>,
    progress: ProgressSink | undefined,
    cacheable: (request: Q) => boolean = () => true,
  ): Promise<Answer<A>[]> {
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
    if (hits > 0) progress?.(hits);
    if (missIndex.length > 0) {
      const fresh = await send(
        missIndex.map((i) => requests[i]),
        progress && ((done) => progress(hits + done)),
      );
      missIndex.forEach((i, j) => {
        answers[i] = fresh[j];
        const key = keys[i];
        if (key !== undefined && !isRequestError(fresh[j])) cache.put(key, JSON.stringify(fresh[j]));
      });
    }
    return answers;
  }

  const wrapped: ModelBackend = {
    name: backend.name,
    capabilities: backend.capabilities,
    ...(backend.concurrency !== undefined ? { concurrency: backend.concurrency } : {}),
    loglikelihood: (requests: LoglikelihoodRequest[], progress?: ProgressSink, options?: CallOptions) =>
      cached<LoglikelihoodRequest, LoglikelihoodResult>(
        'loglikelihood',
        requests,
        (misses, p) => backend.loglikelihood(misses, p, options),
        progress,
      ),
    loglikelihoodRolling: (requests: RollingRequest[], progress?: ProgressSink, options?: CallOptions) =>
      cached<RollingRequest, number>(
        'loglikelihood_rolling',
        requests,
        (misses, p) => backend.loglikelihoodRolling(misses, p, options),
        progress,
      ),
    generate: (requests: GenerateRequest[], progress?: ProgressSink, options?: CallOptions) =>
      cached<GenerateRequest, string>(
        'generate_until',
        requests,
        (misses, p) => backend.generate(misses, p, options),
        progress,
        (request) => !request.doSample,
      ),
    info: () => backend.info(),
    close: async () => {
      await backend.close?.();
      cache.close();
    },
  };
  // Everything else (chat templates, token-level scoring, usage) passes straight through.
  for (const method of [
    'applyChatTemplate',
    'chatTemplate',
    'tokenize',
    'detokenize',
    'tokenizerInfo',
    'scoreTokenWindows',
    'usage',
  ] as const) {
    const original = backend[method];
    if (typeof original === 'function')
      (wrapped as unknown as Record<string, unknown>)[method] = original.bind(backend);
  }
  return wrapped;
}
