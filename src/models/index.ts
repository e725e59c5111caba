/**
 * `assay/backend`: what a backend author and a backend user build on. The backend spec v2 (requests and
 * call options, answers, `ModelBackend` with its declared capabilities, the optional capabilities and
 * their predicates; spec v1's types, still accepted),
 * backends by name (`registerBackend`), the response cache as a wrapper, and two reference backends:
 * `DummyBackend` (deterministic nonsense, for wiring) and `scriptedBackend` (answers from a script and
 * records every request, for tests). An entry file: it only re-exports, and nothing in src/ imports it.
 */
export { MemoryResponseCache } from '../cache/memory-response-cache.js';
export type { ResponseCache } from '../cache/response-cache.js';
export {
  type Answer,
  type AnyVersionBackend,
  BACKEND_SPECIFICATION_VERSION,
  type BackendCapabilities,
  type BackendSpecificationVersion,
  CAPABILITY_NAMES,
  type CallOptions,
  type CallOptionsV1,
  type CapabilityName,
  type ChatMessage,
  type ChatTemplating,
  checkBackendSpec,
  type GenerateCallOptions,
  type GeneratedTokens,
  type GenerateRequest,
  type Generation,
  type GenerationLogprobs,
  type GenerationLogprobsV1,
  type GenerationThinking,
  hasChatTemplate,
  hasGenerationLogprobs,
  hasTokenScoring,
  hasUsage,
  isRequestError,
  type LoglikelihoodCallOptions,
  type LoglikelihoodRequest,
  type LoglikelihoodResult,
  type ModelBackend,
  type ModelBackendV1,
  type ModelInfo,
  type ProgressSink,
  RequestError,
  type RollingCallOptions,
  type RollingRequest,
  type TokenizerInfo,
  type TokenScoring,
  type TokenScoringV1,
  type TokenWindow,
  type TokenWindowsCallOptions,
  type UsageReporting,
  type UsageSummary,
} from './backend.js';
export { withResponseCache } from './caching-backend.js';
export { DummyBackend, type DummyOptions } from './dummy/dummy-backend.js';
export type { HttpModelName } from './http/create.js';
export {
  type BackendContext,
  type BackendDefinition,
  type BuiltInModelName,
  backendNames,
  registerBackend,
  unregisterBackend,
} from './registry.js';
export {
  type ReceivedRequests,
  type Script,
  type ScriptedBackend,
  type ScriptedBackendOptions,
  type ScriptedCall,
  scriptedBackend,
} from './scripted/scripted-backend.js';
export type { Tokenizer, TokenizerBackendName, TokenizerIdentity } from './tokenizers/tokenizer.js';
