/** The settings one evaluation runs with, as typed values (the options of runEvaluation). */
import type { RunListener } from '../events.js';
import type { PythonRuntime } from '../python/python-runtime.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import type { McMode } from './mc-generate.js';
import type { PerplexityOptions } from './perplexity/settings.js';
import type { TaskPins } from './pins.js';
import type { Shard, ShardRecord } from './shard.js';

export interface Seeds {
  random: number | null;
  numpy: number | null;
  torch: number | null;
  fewshot: number | null;
}

export interface RunOptions {
  limit?: number;
  samples?: Record<string, number[]>;
  shard?: Shard;
  /** What results.json records about the shard (with the task specs `assay merge` reloads). */
  shardRecord?: ShardRecord;
  mcMode?: McMode;
  numFewshot?: number;
  seeds: Seeds;
  systemInstruction?: string;
  applyChatTemplate: boolean | string;
  fewshotAsMultiturn: boolean;
  genKwargs: Record<string, unknown>;
  bootstrapIters: number;
  predictOnly: boolean;
  /** What results.json's `config` block records about how the model was asked for. */
  modelLabel: { model: string; modelArgs: Record<string, unknown> | string; batchSize: string | number };
  useCache?: string | null;
  listener?: RunListener;
  /** Runs model-written code for code metrics; set only when the run's tasks were confirmed as unsafe_code. */
  codeSandbox?: CodeSandbox;
  /** --ppl_mode / --ppl_stride / --ppl_max_length for loglikelihood_rolling tasks. */
  perplexity?: PerplexityOptions;
  /** The Python worker the tasks' Python functions are bound to, when any task has them (the manifest records it). */
  python?: PythonRuntime;
  /** Task → expected content sha256 (`--expect_sha256`), checked once the docs are loaded. */
  pins?: TaskPins;
  /** The per-request latency cap in seconds (`--max_latency_s`). */
  maxLatencyS?: number;
}
