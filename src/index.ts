export { AssayError, type ErrorCode } from './errors.js';
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
export { DummyBackend } from './models/dummy/dummy-backend.js';
export { makeTable } from './results/table.js';
export {
  type EvaluateOptions,
  type EvaluateResult,
  evaluate,
  type SimpleEvaluateOptions,
  simpleEvaluate,
} from './run/evaluate.js';
export { defineTask } from './tasks/define-task.js';
export type { GroupNode, LoadedTask, TaskNode } from './tasks/task.js';
export type { Doc, TaskConfig } from './tasks/types.js';
