/**
 * One shard's outputs as `assay merge` reads them: the whole results file (the merge copies most of it)
 * and every sample log. Lines written by JSON.stringify parse and re-serialize to the same bytes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { AssayError } from '../errors.js';
import type { ShardRecord } from '../evaluate/shard.js';
import type { ResultsFile } from './build.js';
import { loadRun } from './compare/load-run.js';
import { leaderboardFileFor } from './run-files.js';
import type { SampleLine } from './samples.js';

export interface ShardLog {
  file: string;
  lines: SampleLine[];
}

export interface ShardRun {
  /** What the user passed. */
  location: string;
  resultsFile: string;
  results: ResultsFile;
  shard: ShardRecord;
  /** Leaf task → its sample log. */
  logs: Map<string, ShardLog>;
  /** The run's leaderboard carried per-example predictions (`--include_per_example`). */
  includePerExample: boolean;
  /** Older results files in the same directory that were not used. */
  ignoredResultsFiles: string[];
}

export function loadShardRun(location: string): ShardRun {
  // loadRun finds the results file (file, its directory or the --output_path above it) and its sample logs.
  let found: ReturnType<typeof loadRun>;
  try {
    found = loadRun(location);
  } catch (error) {
    if (error instanceof AssayError && error.code === 'missing_sample_logs') {
      throw new AssayError(
        'missing_sample_logs',
        `${location}: no sample logs beside ${error.location.file ?? 'the results file'}: assay merge re-aggregates from the sample logs, so every shard must be run with \`logSamples\``,
        { location: error.location, cause: error },
      );
    }
    throw error;
  }
  const results = JSON.parse(readFileSync(found.resultsFile, 'utf8')) as ResultsFile;
  const shard = results.manifest?.shard;
  if (!shard) {
    throw new AssayError(
      'incompatible_runs',
      `${found.resultsFile} is not a shard run (its manifest has no shard); run each part with \`shard\` i/N`,
      { location: { file: found.resultsFile } },
    );
  }
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
    logs.set(task, readLog(file));
  }
  return {
    location,
    resultsFile: found.resultsFile,
    results,
    shard,
    logs,
    includePerExample: leaderboardHasExamples(found.resultsFile),
    ignoredResultsFiles: found.ignoredResultsFiles,
  };
}

function readLog(file: string): ShardLog {
  const raw = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  const lines = raw.map((text, index) => {
    try {
      return JSON.parse(text) as SampleLine;
    } catch (error) {
      throw new AssayError('bad_jsonl_line', `sample log line is not JSON: ${(error as Error).message}`, {
        location: { file, line: index + 1 },
      });
    }
  });
  return { file, lines };
}

/** Whether the run's leaderboard (leaderboard_<time>.json beside its results) has per-example predictions. */
function leaderboardHasExamples(resultsFile: string): boolean {
  const file = leaderboardFileFor(resultsFile);
  if (!file || !existsSync(file)) return false;
  try {
    const leaderboard = JSON.parse(readFileSync(file, 'utf8')) as {
      tasks?: Record<string, { examples?: unknown }>;
    };
    return Object.values(leaderboard.tasks ?? {}).some((task) => task.examples !== undefined);
  } catch {
    return false;
  }
}
