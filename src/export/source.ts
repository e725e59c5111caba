/**
 * What an export reads: one run's results file, the sample logs and the leaderboard written beside it.
 * The run is located and read as compare and gate read it (results/read-run.ts: the results file, its
 * folder, or the --output_path above it); here sample logs are optional, since a run made without
 * --log_samples still has results worth tracking.
 */
import path from 'node:path';
import { type PartialRun, partialRunOf } from '../results/partial-run.js';
import { type LoadedRun, loadRun } from '../results/read-run.js';
import { stampOf } from '../results/run-files.js';
import type { ReadResults } from '../results/schema.js';

export interface ExportSource {
  resultsFile: string;
  results: ReadResults;
  /** Leaf task → its sample log, in the order of the results file's configs. */
  sampleFiles: Map<string, string>;
  leaderboardFile: string | undefined;
  /** The time stamp the run's file names share (`2024-05-01T12-00-00.123456`). */
  stamp: string | undefined;
  /** Other results files in the folder that were not exported (the newest one is). */
  ignoredResultsFiles: string[];
  /** Whether the numbers cover every doc, and why not: every target carries it with the numbers. */
  partial: PartialRun;
}

export function fromLoadedRun(run: LoadedRun): ExportSource {
  return {
    resultsFile: run.resultsFile,
    results: run.results,
    sampleFiles: run.sampleFiles,
    leaderboardFile: run.leaderboardFile,
    stamp: stampOf(run.resultsFile),
    ignoredResultsFiles: run.ignoredResultsFiles,
    partial: partialRunOf(run),
  };
}

export function loadExportSource(location: string): ExportSource {
  return fromLoadedRun(loadRun(location, { requireSamples: false }));
}

/** The run's own files, results first: what an export uploads as they are on disk. */
export function runFiles(source: ExportSource, options: { samples: boolean }): string[] {
  const files = [source.resultsFile];
  if (options.samples) files.push(...source.sampleFiles.values());
  if (source.leaderboardFile) files.push(source.leaderboardFile);
  return files;
}

export function baseName(file: string): string {
  return path.basename(file);
}
