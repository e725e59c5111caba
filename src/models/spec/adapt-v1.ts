/**
 * The one place a spec v1 backend becomes a v2 one: each v2 call-options object is spread back into v1's
 * positional parameters (`abortSignal` as `{ signal }`), and everything else passes through. The registry,
 * `simpleEvaluate` and the conformance suite call `toCurrentSpec` on what they are given, after the spec
 * check; past them, assay holds v2 backends only.
 */
import type { ChatTemplating, UsageReporting } from './capabilities.js';
import type { ModelBackend } from './model-backend.js';
import type {
  CallOptionsV1,
  GenerationLogprobsV1,
  ModelBackendV1,
  TokenScoringV1,
} from './model-backend-v1.js';
import type { CallOptions } from './requests.js';

/** A backend of a spec version this assay accepts. */
export type AnyVersionBackend = ModelBackend | ModelBackendV1;

function optionsV1(options: CallOptions<unknown>): CallOptionsV1 | undefined {
  return options.abortSignal ? { signal: options.abortSignal } : undefined;
}

/** A v2 backend as it is; a v1 backend behind a v2 face that calls it. */
export function toCurrentSpec(backend: AnyVersionBackend): ModelBackend {
  return backend.specificationVersion === 'v1' ? adaptBackendV1(backend) : backend;
}

export function adaptBackendV1(backend: ModelBackendV1): ModelBackend {
  const v1 = backend as ModelBackendV1 &
    Partial<TokenScoringV1 & GenerationLogprobsV1 & ChatTemplating & UsageReporting>;
  const adapted: Record<string, unknown> & ModelBackend = {
    specificationVersion: 'v2',
    name: backend.name,
    capabilities: backend.capabilities,
    ...(backend.concurrency !== undefined ? { concurrency: backend.concurrency } : {}),
    loglikelihood: (options) =>
      backend.loglikelihood(options.requests, options.onProgress, optionsV1(options)),
    loglikelihoodRolling: (options) =>
      backend.loglikelihoodRolling(options.requests, options.onProgress, optionsV1(options)),
    generate: (options) => backend.generate(options.requests, options.onProgress, optionsV1(options)),
    info: () => backend.info(),
  };
  if (backend.close) adapted.close = () => (backend.close as () => Promise<void>).call(backend);
  const { capabilities } = backend;
  if (capabilities.generationLogprobs && v1.generateWithLogprobs) {
    const generateWithLogprobs = v1.generateWithLogprobs.bind(backend);
    adapted.generateWithLogprobs = (options: CallOptions<never>) =>
      generateWithLogprobs(options.requests, options.onProgress, optionsV1(options));
  }
  if (capabilities.tokenScoring && v1.scoreTokenWindows) {
    const scoreTokenWindows = v1.scoreTokenWindows.bind(backend);
    adapted.scoreTokenWindows = (options: CallOptions<never>) =>
      scoreTokenWindows(options.requests, options.onProgress);
  }
  // The other methods of the optional capabilities take the same parameters in both versions.
  const same = {
    tokenScoring: ['tokenize', 'detokenize', 'tokenizerInfo'],
    chatTemplate: ['applyChatTemplate', 'chatTemplate'],
    usage: ['usage'],
  } as const;
  for (const capability of Object.keys(same) as Array<keyof typeof same>) {
    if (capabilities[capability] !== true) continue;
    for (const method of same[capability]) {
      const original = (backend as unknown as Record<string, unknown>)[method];
      if (typeof original === 'function') adapted[method] = original.bind(backend);
    }
  }
  return adapted;
}
