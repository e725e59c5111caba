/**
 * The shards of `assay merge`, read through the results contract and checked to fit together: every
 * index 0..N-1 of one N exactly once, run with the same tasks, settings and model (timing and the
 * machine may differ), each with its sample logs. One shard's outputs are its results file (the merge
 * copies most of it) and every sample log, whose lines re-serialize to the same bytes.
 */
import { existsSync } from 'node:fs';
import { AssayError } from '../../errors.js';
import type { Logger } from '../../events.js';
import { readLeaderboard } from '../../results/read-leaderboard.js';
import { firstIssue, loadRun } from '../../results/read-run.js';
import { readSampleLog } from '../../results/read-samples.js';
import type { SampleLine } from '../../results/sample-line.js';
import { type ShardResults, shardResultsSchema } from '../../results/schema.js';

export interface ShardLog {
  file: string;
  lines: SampleLine[];
}

export interface ShardRun {
  /** What the user passed. */
  location: string;
  resultsFile: string;
  results: ShardResults;
  /** The results file as written, key order kept: the merge copies its unscored fields from it. */
  raw: Record<string, unknown>;
  shard: ShardResults['manifest']['shard'];
  /** Leaf task → its sample log. */
  logs: Map<string, ShardLog>;
  /** The run's leaderboard carried per-example predictions (`--include_per_example`). */
  includePerExample: boolean;
  /** Older results files in the same directory that were not used. */
  ignoredResultsFiles: string[];
}

export function loadShardRun(location: string): ShardRun {
  // The one reader: the results file (file, its directory or the --output_path above it) and its logs.
  const found = loadRun(location, { requireSamples: false });
  if (found.sampleFiles.size === 0) {
    throw new AssayError(
      'missing_sample_logs',
      `${location}: no sample logs beside ${found.resultsFile}: assay merge re-aggregates from the sample logs, so every shard must be run with \`logSamples\``,
      { location: { file: found.resultsFile } },
    );
  }
  if (!found.results.manifest?.shard) {
    throw new AssayError(
      'incompatible_runs',
      `${found.resultsFile} is not a shard run (its manifest has no shard); run each part with \`shard\` i/N`,
      { location: { file: found.resultsFile } },
    );
  }
  const checked = shardResultsSchema.safeParse(found.results);
  if (!checked.success) {
    throw new AssayError(
      'bad_data',
      `${found.resultsFile} is not the results of an assay shard run: ${firstIssue(checked.error)}`,
      { location: { file: found.resultsFile } },
    );
  }
  const results = checked.data;
  const shard = results.manifest.shard;
  const logs = new Map<string, ShardLog>();
  for (const task of Object.keys(results.configs)) {
    const file = found.sampleFiles.get(task);
    if (!file) {
      throw new AssayError(
        'missing_sample_logs',
        `shard ${shard.index}/${shard.count} (${found.resultsFile}) has no sample log for task ${task}; every shard must be run with \`logSamples\``,
        { location: { file: found.resultsFile, task } },
      );
    }
    logs.set(task, { file, lines: readSampleLog(file) });
  }
  return {
    location,
    resultsFile: found.resultsFile,
    results,
    raw: found.raw,
    shard,
    logs,
    includePerExample: leaderboardHasExamples(found.leaderboardFile),
    ignoredResultsFiles: found.ignoredResultsFiles,
  };
}

/** Whether the run's leaderboard (beside its results) has per-example predictions. */
function leaderboardHasExamples(file: string | undefined): boolean {
  if (!file || !existsSync(file)) return false;
  try {
    return Object.values(readLeaderboard(file).tasks).some((task) => task.examples !== undefined);
  } catch {
    return false;
  }
}

/** Sorts by shard index and refuses a set that is not exactly 0..N-1 of one N. */
export function orderedShards(runs: ShardRun[]): ShardRun[] {
  const count = runs[0].shard.count;
  for (const run of runs) {
    if (run.shard.count !== count) {
      throw new AssayError(
        'incompatible_runs',
        `shards of different splits: ${runs[0].resultsFile} is ${runs[0].shard.index}/${count}, ${run.resultsFile} is ${run.shard.index}/${run.shard.count}`,
      );
    }
  }
  const byIndex = new Map<number, ShardRun>();
  for (const run of runs) {
    const other = byIndex.get(run.shard.index);
    if (other) {
      throw new AssayError(
        'incompatible_runs',
        `shard ${run.shard.index}/${count} given twice: ${other.resultsFile} and ${run.resultsFile}`,
      );
    }
    byIndex.set(run.shard.index, run);
  }
  const missing = Array.from({ length: count }, (_, index) => index).filter((index) => !byIndex.has(index));
  if (missing.length) {
    throw new AssayError(
      'incompatible_runs',
      `missing shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${count}`).join(', ')}: a merge needs all ${count}`,
    );
  }
  return [...byIndex.keys()].sort((a, b) => a - b).map((index) => byIndex.get(index) as ShardRun);
}

/** Fields of results.json that hold timing or per-machine facts, not scores: merged, never compared. */
const NOT_COMPARED = new Set(['date', 'total_evaluation_time_seconds', 'request_stats', 'git_hash']);
/** Fields recomputed from the merged sample logs. */
export const COMPUTED = new Set([
  'results',
  'groups',
  'group_subtasks',
  'versions',
  'n-shot',
  'higher_is_better',
  'n-samples',
  'task_hashes',
  'stats',
  'perplexity',
  'errors',
  'timeouts',
  'reasoning',
]);

/**
 * Everything but timing, per-machine facts, the shard slice and the scores must be equal: the same
 * tasks, task configs, model and model args, seeds, limit, generation kwargs, assay version and sampler.
 */
export function checkSameRun(
  first: ShardRun,
  run: ShardRun,
  logger: Logger | undefined,
  { ownCaches = false }: { ownCaches?: boolean } = {},
): void {
  const difference = firstDifference(
    comparable(first.results, ownCaches),
    comparable(run.results, ownCaches),
    '',
  );
  if (difference) {
    throw new AssayError(
      'incompatible_runs',
      `shard ${run.shard.index}/${run.shard.count} (${run.resultsFile}) was not run like shard ${first.shard.index}/${first.shard.count} (${first.resultsFile}): ${difference}`,
    );
  }
  if (first.results.git_hash !== run.results.git_hash) {
    logger?.warn(
      `shards ran from different checkouts (git ${first.results.git_hash} and ${run.results.git_hash}); the merged run records the first`,
    );
  }
}

function comparable(results: ShardResults, ownCaches: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(results)) {
    if (NOT_COMPARED.has(key) || (COMPUTED.has(key) && key !== 'n-samples' && key !== 'versions')) continue;
    out[key] = value;
  }
  // Counts and seconds differ per slice; the mode, its parameters and the tokenizer must not.
  if (results.perplexity) {
    out.perplexity = Object.fromEntries(
      Object.entries(results.perplexity).map(([task, report]) => [
        task,
        {
          mode: report.mode,
          mode_source: report.mode_source,
          parameters: report.parameters,
          tokenizer: report.tokenizer,
        },
      ]),
    );
  }
  const { shard: _configShard, ...config } = results.config;
  // Shards that each kept their own response cache (a suite's) differ in its path by design.
  out.config = ownCaches ? { ...config, use_cache: null } : config;
  // Hardware and runtime may differ between machines; the shard index differs by design.
  const { hardware: _hardware, runtime: _runtime, shard, ...manifest } = results.manifest;
  const { index: _index, ...shardRest } = shard;
  out.manifest = { ...manifest, model: machineFreeModel(manifest.model), shard: shardRest };
  out['n-samples'] = Object.fromEntries(
    Object.entries(results['n-samples']).map(([task, counts]) => [task, counts.original]),
  );
  return out;
}

/**
 * A managed server (`--model vllm`) is started per shard: its port, pid, log file, command line (which
 * holds the port) and GPUs differ by machine. Its kind and version must not; the flags it got come from
 * the model args, compared on their own.
 */
function machineFreeModel(model: ShardResults['manifest']['model']): unknown {
  const { server, gpu: _gpu, ...info } = model.info as Record<string, unknown>;
  if (!server || typeof server !== 'object') return model;
  const { kind, version, started_by_assay: started } = server as Record<string, unknown>;
  return { ...model, info: { ...info, server: { kind, version, started_by_assay: started } } };
}

/** A readable path to the first place two JSON values differ, with both values; undefined when equal. */
export function firstDifference(a: unknown, b: unknown, at: string): string | undefined {
  if (a === b) return undefined;
  const show = (value: unknown) => {
    const text = JSON.stringify(value) ?? 'undefined';
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const inner = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        at ? `${at}.${key}` : key,
      );
      if (inner) return inner;
    }
    return undefined;
  }
  if (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b)) return undefined;
  return `${at || '(root)'} is ${show(a)} in one and ${show(b)} in the other`;
}
