/** The public API: what a Node user builds on (docs/library.md has a runnable example of each). */
export { AssayError, ERROR_CODES, type ErrorCode, type ErrorLocation } from './errors.js';
export type { Logger, RunEvent, RunListener } from './events.js';
export type {
  BackendCapabilities,
  ChatMessage,
  GenerateRequest,
  LoglikelihoodRequest,
  LoglikelihoodResult,
  ModelBackend,
  ModelInfo,
  RollingRequest,
} from './models/backend.js';
export {
  type Answer,
  type Generation,
  isRequestError,
  RequestError,
  type TokenizerInfo,
  type TokenWindow,
  type UsageSummary,
} from './models/backend.js';
export { DummyBackend } from './models/dummy/dummy-backend.js';
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
export { defineTask } from './tasks/define-task.js';
export type { GroupNode, LoadedTask, TaskNode } from './tasks/task.js';
export type { Doc, TaskConfig } from './tasks/types.js';
