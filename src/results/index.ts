/**
 * `assay/results`: the readers of what a run writes (and a suite: its summary and manifest), and the
 * contract's types. Every reader goes through
 * the contract's zod schemas (schema.ts) and fails with an AssayError naming the file (and the line of a
 * sample log); lm-eval's own files read too. `ResultsFile` and `SampleLine` are the files as assay writes
 * them (inferred from `writtenResultsSchema` and `writtenSampleLineSchema`; what `evaluate` returns),
 * `ReadResults`, `ReadSampleLine` and `Leaderboard` what the readers give. An entry file: it only
 * re-exports, and nothing in src/ imports it.
 */
export type { PythonDescription } from '../python/python-runtime.js';
export type { MemoryMechanism } from '../sandbox/memory.js';
export type { SandboxDescription } from '../sandbox/sandbox.js';
export type { IsolationMode } from '../sandbox/types.js';
export { parseLeaderboard, readLeaderboard } from './read-leaderboard.js';
export {
  type LoadedRun,
  type LoadRunOptions,
  loadRun,
  parseResults,
  readResultsFile,
} from './read-run.js';
export { readSamples } from './read-samples.js';
export { parseSuiteSummary, readSuiteSummary } from './read-suite-summary.js';
export {
  type CiMethod,
  type ErrorsBlock,
  type Manifest,
  type MetricStats,
  type PerplexityReport,
  type PerplexitySource,
  type PplMode,
  type ReasoningBlock,
  type RequestLatency,
  type RequestType,
  type ResultsEntry,
  type ResultsFile,
  type ShardRecord,
  type TaskLatency,
  type TaskManifest,
  type TimeoutsBlock,
  type TokenizerBlock,
  writtenResultsSchema,
} from './results-file.js';
export { type DocPerplexity, type SampleLine, writtenSampleLineSchema } from './sample-line.js';
export {
  LEADERBOARD_SCHEMA,
  LEADERBOARD_SCHEMAS_READ,
  type Leaderboard,
  type LeaderboardTask,
  leaderboardSchema,
  leaderboardTaskSchema,
  RESULTS_SCHEMA,
  RESULTS_SCHEMAS_READ,
  type ReadResults,
  type ReadSampleLine,
  resultsFileSchema,
  sampleLineSchema,
} from './schema.js';
export {
  parseSuiteManifest,
  readSuiteManifest,
  SUITE_MANIFEST_SCHEMA,
  type SuiteManifest,
  type SuiteManifestCell,
  type SuiteManifestTask,
  suiteManifestCellSchema,
  suiteManifestSchema,
  suiteManifestTaskSchema,
} from './suite-manifest.js';
export {
  type GroupSummary,
  groupSummarySchema,
  type HeadToHead,
  headToHeadSchema,
  type PairEntry,
  pairEntrySchema,
  SUITE_SUMMARY_SCHEMA,
  type SuiteSummary,
  type SummaryCell,
  suiteSummarySchema,
  summaryCellSchema,
  type TaskSummary,
  taskSummarySchema,
} from './suite-summary.js';
export { makeTable, type TableOptions, type TableSource } from './table.js';
