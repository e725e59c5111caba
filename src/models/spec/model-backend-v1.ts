/**
 * Backend spec v1, still accepted: positional parameters (the batch, a progress sink, `{ signal }`)
 * where v2 takes one call-options object. Everything else (requests, answers, capabilities, info) is
 * v2's. The registry, `simpleEvaluate` and the conformance suite adapt a v1 backend to v2 (adapt-v1.ts);
 * nothing else in assay calls a v1 method.
 */
import type { Answer, Generation, LoglikelihoodResult } from './answers.js';
import type { TokenScoring } from './capabilities.js';
import type { ModelBackend } from './model-backend.js';
import type {
  GenerateRequest,
  LoglikelihoodRequest,
  ProgressSink,
  RollingRequest,
  TokenWindow,
} from './requests.js';

/** v1's per-call options: `signal` is v2's `abortSignal`. */
export interface CallOptionsV1 {
  signal?: AbortSignal;
}

/** The model seam as spec v1 declares it: v2's but for the three request methods' parameters. */
export interface ModelBackendV1
  extends Omit<ModelBackend, 'specificationVersion' | 'loglikelihood' | 'loglikelihoodRolling' | 'generate'> {
  readonly specificationVersion: 'v1';
  loglikelihood(
    requests: LoglikelihoodRequest[],
    progress?: ProgressSink,
    options?: CallOptionsV1,
  ): Promise<Answer<LoglikelihoodResult>[]>;
  loglikelihoodRolling(
    requests: RollingRequest[],
    progress?: ProgressSink,
    options?: CallOptionsV1,
  ): Promise<Answer<number>[]>;
  generate(
    requests: GenerateRequest[],
    progress?: ProgressSink,
    options?: CallOptionsV1,
  ): Promise<Answer<string>[]>;
}

/** Capability `tokenScoring` in v1: `scoreTokenWindows(windows, progress?)`. */
export interface TokenScoringV1 extends Omit<TokenScoring, 'scoreTokenWindows'> {
  scoreTokenWindows(windows: TokenWindow[], progress?: ProgressSink): Promise<number[][]>;
}

/** Capability `generationLogprobs` in v1. */
export interface GenerationLogprobsV1 {
  generateWithLogprobs(
    requests: GenerateRequest[],
    progress?: ProgressSink,
    options?: CallOptionsV1,
  ): Promise<Answer<Generation>[]>;
}
