/** The public API: what a Node user builds on (docs/library.md has a runnable example of each). */
export { MemoryResponseCache } from './cache/memory-response-cache.js';
export type { ResponseCache } from './cache/response-cache.js';
export { AssayError, ERROR_CODES, type ErrorCode, type ErrorLocation } from './errors.js';
export type { Logger, RunEvent, RunListener } from './events.js';
// The backend spec (v1): the ModelBackend type, its optional capabilities and their predicates.
export {
  type Answer,
  BACKEND_SPECIFICATION_VERSION,
  type BackendCapabilities,
  type BackendSpecificationVersion,
  CAPABILITY_NAMES,
  type CapabilityName,
  type ChatMessage,
  type ChatTemplating,
  checkBackendSpec,
  type GeneratedTokens,
  type GenerateRequest,
  type Generation,
  type GenerationLogprobs,
  type GenerationThinking,
  hasChatTemplate,
  hasGenerationLogprobs,
  hasTokenScoring,
  hasUsage,
  isRequestError,
  type LoglikelihoodRequest,
  type LoglikelihoodResult,
  type ModelBackend,
  type ModelInfo,
  type ProgressSink,
  RequestError,
  type RollingRequest,
  type TokenizerInfo,
  type TokenScoring,
  type TokenWindow,
  type UsageReporting,
  type UsageSummary,
} from './models/backend.js';
export { withResponseCache } from './models/caching-backend.js';
export { DummyBackend } from './models/dummy/dummy-backend.js';
export {
  type BackendContext,
  type BackendDefinition,
  type BuiltInModelName,
  backendNames,
  registerBackend,
  unregisterBackend,
} from './models/registry.js';
export type { Tokenizer, TokenizerBackendName, TokenizerIdentity } from './models/tokenizers/tokenizer.js';
export {
  type Adjustment,
  type CompareOptions,
  type ComparisonRow,
  compareRuns,
  type RunComparison,
} from './results/compare/compare-runs.js';
export { type ComparisonFormat, renderComparison } from './results/compare/format-comparison.js';
export {
  type GateMode,
  type GateOptions,
  type GateReport,
  type GateStatus,
  type GateTaskResult,
  gateRuns,
} from './results/compare/gate.js';
export { type MergeOptions, type MergeResult, mergeShards } from './results/merge/merge-shards.js';
export type { ResultsFile } from './results/results-file.js';
export type { SampleLine } from './results/samples.js';
export type { Leaderboard, LeaderboardTask } from './results/schema.js';
export { makeTable } from './results/table.js';
export {
  type EvaluateOptions,
  type EvaluateResult,
  evaluate,
  type SimpleEvaluateOptions,
  simpleEvaluate,
} from './run/evaluate.js';
export * as stats from './stats/index.js';
export type { Doc } from './task-config/doc.js';
export type { TaskConfig } from './task-config/task-config.js';
export { defineTask } from './tasks/define-task.js';
export type { GroupNode, LoadedTask, TaskNode } from './tasks/task.js';
