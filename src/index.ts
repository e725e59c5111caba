export { AssayError, type ErrorCode } from './errors.js';
export {
  evaluate,
  simpleEvaluate,
  type EvaluateOptions,
  type SimpleEvaluateOptions,
  type EvaluateResult,
} from './evaluate/evaluate.js';
export type { RunEvent, RunListener } from './evaluate/events.js';
export type {
  ModelBackend,
  BackendCapabilities,
  LoglikelihoodRequest,
  LoglikelihoodResult,
  RollingRequest,
  GenerateRequest,
  ChatMessage,
  ModelInfo,
} from './models/backend.js';
export { DummyBackend } from './models/dummy/dummy-backend.js';
export { defineTask } from './tasks/define-task.js';
export type { LoadedTask, GroupNode, TaskNode } from './tasks/task.js';
export type { TaskConfig, Doc } from './tasks/types.js';
export { makeTable } from './results/table.js';
