/**
 * `assay/results`: the readers of what a run writes, and the contract's types. Every reader goes through
 * the contract's zod schemas (schema.ts) and fails with an AssayError naming the file (and the line of a
 * sample log); lm-eval's own files read too. `ResultsFile` and `SampleLine` are the writer's types (what
 * `evaluate` returns), `ReadResults`, `ReadSampleLine` and `Leaderboard` what the readers give. An entry
 * file: it only re-exports, and nothing in src/ imports it.
 */
export type { RequestLatency } from '../evaluate/execute.js';
export type {
  PerplexitySettings,
  PerplexitySource,
} from '../evaluate/perplexity/settings.js';
export type { DocPerplexity, PerplexityReport, TokenizerBlock } from '../evaluate/perplexity/types.js';
export type { TaskLatency } from '../evaluate/request-timing.js';
export type { RequestType } from '../evaluate/requests.js';
export type { ShardRecord } from '../evaluate/shard.js';
export type { PythonDescription } from '../python/python-runtime.js';
export type { MemoryMechanism } from '../sandbox/memory.js';
export type { SandboxDescription } from '../sandbox/sandbox.js';
export type { IsolationMode } from '../sandbox/types.js';
export type { Manifest, TaskManifest } from './manifest.js';
export { parseLeaderboard, readLeaderboard } from './read-leaderboard.js';
export {
  type LoadedRun,
  type LoadRunOptions,
  loadRun,
  parseResults,
  readResultsFile,
} from './read-run.js';
export { readSamples } from './read-samples.js';
export type {
  ErrorsBlock,
  MetricStats,
  ReasoningBlock,
  ResultsEntry,
  ResultsFile,
  TimeoutsBlock,
} from './results-file.js';
export type { SampleLine } from './samples.js';
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
export { makeTable, type TableOptions, type TableSource } from './table.js';
