/**
 * A suite's cells: one per (model, task set), each with the settings its run takes, merged from the
 * suite's `settings`, the model's and the task set's own (the more specific wins; gen_kwargs merge key by
 * key). The settings are plain values as the suite file writes them, so their hash changes exactly when
 * something that changes the run changes; `runOptionsOf` turns them into the options `assay run` resolves
 * its flags into.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RunOptionsInput } from '../evaluate/run-options.js';
import type { LoadedSuite } from './read-suite.js';
import { type SuiteModel, type SuiteTaskSet, taskSetName, taskSpecs } from './suite-file.js';

/** What a cell's run is given, in the suite file's words (snake_case, paths as written). */
export interface CellSettings {
  model: string;
  model_args: Record<string, unknown>;
  tasks: string[];
  num_fewshot?: number;
  limit?: number;
  samples?: Record<string, number[]>;
  seeds?: Record<string, number | null | undefined>;
  gen_kwargs: Record<string, unknown>;
  apply_chat_template?: boolean | string;
  system_instruction?: string;
  fewshot_as_multiturn?: boolean;
  bootstrap_iters?: number;
  max_latency_s?: number;
  device?: string;
  max_batch_size?: number;
  trust_remote_code?: boolean;
  include_path?: string[];
  python?: string;
  metadata?: Record<string, unknown>;
  confirm_run_unsafe_code?: boolean;
}

export interface SuiteCell {
  /** The model's display name (its folder). */
  model: string;
  /** The task set's name (its folder). */
  taskSet: string;
  /** Index of the model and of the task set in the suite file (for error locations). */
  modelIndex: number;
  taskSetIndex: number;
  settings: CellSettings;
  /** sha256 of the settings, canonical JSON: equal hashes, an identical run. */
  settingsHash: string;
  /** The task set's `shard_slices`: the doc slices a sharded run cuts this cell into. */
  shardSlices?: number;
}

/** JSON with object keys sorted and undefined values left out, so equal settings give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function settingsHash(settings: CellSettings): string {
  return createHash('sha256').update(canonicalJson(settings)).digest('hex');
}

function cellSettings(loaded: LoadedSuite, model: SuiteModel, taskSet: SuiteTaskSet): CellSettings {
  const base = loaded.suite.settings ?? {};
  const pick = <K extends keyof SuiteModel & keyof typeof base>(key: K) => model[key] ?? base[key];
  const limit = taskSet.limit ?? taskSet.max_eval_instances ?? base.limit ?? base.max_eval_instances;
  return {
    model: model.model,
    model_args: model.model_args ?? {},
    tasks: taskSpecs(taskSet),
    num_fewshot: taskSet.num_fewshot ?? base.num_fewshot,
    limit,
    samples: taskSet.samples,
    seeds: base.seeds,
    gen_kwargs: { ...base.gen_kwargs, ...model.gen_kwargs, ...taskSet.gen_kwargs },
    apply_chat_template: pick('apply_chat_template'),
    system_instruction: pick('system_instruction'),
    fewshot_as_multiturn: pick('fewshot_as_multiturn'),
    bootstrap_iters: base.bootstrap_iters,
    max_latency_s: pick('max_latency_s'),
    device: pick('device'),
    max_batch_size: pick('max_batch_size'),
    trust_remote_code: pick('trust_remote_code'),
    include_path: base.include_path,
    python: base.python,
    metadata: taskSet.metadata,
    confirm_run_unsafe_code: base.confirm_run_unsafe_code,
  };
}

/** Every cell, models in file order, each model's task sets in file order. */
export function suiteCells(loaded: LoadedSuite): SuiteCell[] {
  const { models, tasks } = loaded.suite;
  return models.flatMap((model, modelIndex) =>
    tasks.map((taskSet, taskSetIndex) => {
      const settings = cellSettings(loaded, model, taskSet);
      return {
        model: model.name,
        taskSet: taskSetName(taskSet),
        modelIndex,
        taskSetIndex,
        settings,
        settingsHash: settingsHash(settings),
        ...(taskSet.shard_slices !== undefined ? { shardSlices: taskSet.shard_slices } : {}),
      };
    }),
  );
}

/**
 * A task spec or include folder as the suite file writes it: a path relative to the suite file when one
 * exists there, else as given (a task name, a glob, a path relative to the working folder).
 */
export function fromSuiteFolder(spec: string, suiteFile: string): string {
  const beside = path.resolve(path.dirname(suiteFile), spec);
  return !path.isAbsolute(spec) && existsSync(beside) ? beside : spec;
}

/** The run options of a cell (what `assay run`'s flags resolve into), with the suite's paths. */
export function runOptionsOf(
  settings: CellSettings,
  suiteFile: string,
  where: { outputPath?: string; useCache?: string; shard?: { index: number; count: number } } = {},
): RunOptionsInput {
  return {
    model: settings.model,
    modelArgs: settings.model_args,
    tasks: settings.tasks.map((spec) => fromSuiteFolder(spec, suiteFile)),
    numFewshot: settings.num_fewshot,
    limit:
      settings.limit === undefined
        ? undefined
        : settings.limit < 1
          ? { fraction: settings.limit }
          : settings.limit,
    samples: settings.samples,
    seeds: settings.seeds,
    genKwargs: settings.gen_kwargs,
    applyChatTemplate: settings.apply_chat_template,
    systemInstruction: settings.system_instruction,
    fewshotAsMultiturn: settings.fewshot_as_multiturn,
    bootstrapIters: settings.bootstrap_iters,
    maxLatencyS: settings.max_latency_s,
    device: settings.device,
    maxBatchSize: settings.max_batch_size,
    trustRemoteCode: settings.trust_remote_code,
    includePath: settings.include_path?.map((folder) => path.resolve(path.dirname(suiteFile), folder)),
    python: settings.python,
    metadata: settings.metadata,
    confirmRunUnsafeCode: settings.confirm_run_unsafe_code,
    // A suite's cells always keep their sample logs: the summary's paired statistics read them.
    logSamples: true,
    outputPath: where.outputPath,
    useCache: where.useCache,
    shard: where.shard,
  };
}
