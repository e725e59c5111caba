/**
 * `assay`: run an evaluation, its options, its result and its errors. The package's other faces are
 * subpaths, each an entry file that only re-exports:
 *
 *   assay/backend   the backend spec, its predicates, registerBackend, withResponseCache, scriptedBackend
 *                   (src/models/index.ts)
 *   assay/results   the readers of results files, sample logs and leaderboards, and the contract's types
 *                   (src/results/index.ts)
 *   assay/compare   paired comparison, the regression gate, the leaderboard diff (src/results/compare/index.ts)
 *   assay/stats     the statistics (src/stats/index.ts)
 *   assay/testing   the conformance suites, for vitest (src/testing/index.ts)
 *
 * Every type an exported signature names is exported by one of them (test/public-api.test.ts walks the
 * built .d.ts files). docs/library.md has a runnable example of each.
 */

// Tasks: `tasks` takes names, files and folders, or task objects (defineTask, or ones a loader made).
export type { HubDataSource, HubFile } from './data/hub/dataset.js';
export type { DataFile } from './data/local-dataset.js';
// Errors: every error a caller can cause, with a stable code.
export { AssayError, ERROR_CODES, type ErrorCode, type ErrorLocation } from './errors.js';
// The result's parts (the results file and sample lines are `assay/results` types).
export type { GroupResult, MetricResult, Stderr, TaskResult } from './evaluate/aggregate.js';
// The options: one schema (defaults and checks), its input and resolved types, and their parts.
export type { CodeExecutionOptions } from './evaluate/code-stage.js';
export type { Limit } from './evaluate/limit.js';
export type { McMode } from './evaluate/mc-generate.js';
export type { ClusteredSummary, RepeatsSummary } from './evaluate/metric-stats.js';
export { type PerplexityOptions, PPL_MODES, type PplMode } from './evaluate/perplexity/settings.js';
export type { TaskPins } from './evaluate/pins.js';
export {
  type ResolvedRunOptions,
  type RunOptionsInput,
  runOptionsSchema,
} from './evaluate/run-options.js';
export type { Seeds } from './evaluate/seeds.js';
export type { Shard } from './evaluate/shard.js';
export type { Interval as MetricInterval } from './evaluate/uncertainty.js';
export type { Logger, OperationUnit, RunEvent, RunListener } from './events.js';
export type { RunModelSettings } from './models/run-settings.js';
// Runs: a registered model by name, a backend object the caller holds, the shards of a sharded run.
export { type MergeOptions, type MergeResult, mergeShards } from './report/merge/merge-shards.js';
export type { WrittenFiles } from './report/output.js';
export type { RunOutput, RunResult } from './report/run-output.js';
export {
  type CommonOptions,
  type EvaluateOptions,
  type EvaluateResult,
  evaluate,
  type RunHooks,
  type SimpleEvaluateOptions,
  simpleEvaluate,
} from './run/evaluate.js';
export type { CreateSandboxOptions } from './sandbox/sandbox.js';
export type { SandboxLimits } from './sandbox/types.js';
// Suites: many models × many task sets (docs/suites.md): the suite file's schema, its run, summary, diff.
export type { CellSettings, SuiteCell } from './suite/cells.js';
export {
  type DiffSuitesOptions,
  diffSuites,
  type ScoreDiff,
  type SuiteDiff,
  type SuiteSide,
  type TaskContentChange,
} from './suite/diff/diff-suites.js';
export type { FieldPath, LoadedSuite } from './suite/read-suite.js';
export {
  type CellOutcome,
  type RunSuiteOptions,
  runSuite,
  type SuiteRunResult,
} from './suite/run-suite.js';
export type { SuiteShard } from './suite/shard-plan.js';
export {
  type MergedCell,
  type MergeSuiteOptions,
  type MergeSuiteResult,
  mergeSuite,
} from './suite/shard-suite.js';
export type { SuiteEvent, SuiteListener } from './suite/suite-events.js';
export {
  type SuiteFile,
  type SuiteModel,
  type SuiteSettings,
  type SuiteTaskSet,
  suiteFileSchema,
} from './suite/suite-file.js';
export {
  type SummarizeSuiteOptions,
  type SummarizeSuiteResult,
  summarizeSuite,
} from './suite/summarize/summarize-suite.js';
export {
  type ValidatedSuite,
  type ValidateSuiteOptions,
  validateSuite,
} from './suite/validate-suite.js';
export type { Doc } from './task-config/doc.js';
export type { FilterConfig, FilterStepConfig } from './task-config/filter-config.js';
export type {
  DocFunction,
  DocsFunction,
  FunctionRef,
  ProcessResultsFunction,
} from './task-config/function-ref.js';
export type { MetricConfig } from './task-config/metric-config.js';
export type { OutputType } from './task-config/output-type.js';
export type { ChoiceField, FewshotConfig, TaskConfig, TemplateField } from './task-config/task-config.js';
export { type DefineTaskOptions, type DocsSource, defineTask } from './tasks/define-task.js';
export type {
  AggregateMetricConfig,
  CustomScoring,
  GroupConfig,
  GroupNode,
  LoadedTask,
  TaskNode,
  TaskSource,
} from './tasks/task.js';
