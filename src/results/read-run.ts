/**
 * The one reader of a run's results file: compare, gate, merge, export and the leaderboard diff load a
 * run here, and the viewer parses each results file it finds with `parseResults`. A "run" is one
 * results file and what was written beside it (sample logs, leaderboard). A location is the results
 * file itself, the folder holding it, or the `--output_path` folder one level above
 * (`<output_path>/<model>/`); in a folder holding several, the newest wins and the others are listed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { AssayError } from '../errors.js';
import {
  isResultsFileName,
  isStagingName,
  leaderboardFileFor,
  samplesFileName,
  stampOf,
} from './run-files.js';
import { type ReadResults, resultsFileSchema } from './schema.js';

export interface LoadedRun {
  /** What the user passed. */
  location: string;
  resultsFile: string;
  results: ReadResults;
  /**
   * The file as written (the contract validated it): what `assay merge` copies, since a parse puts the
   * schema's keys first and the merged file must read like a single run's.
   */
  raw: Record<string, unknown>;
  /** Leaf task → its sample log, for the tasks that have one, in the order of the results' configs. */
  sampleFiles: Map<string, string>;
  /** leaderboard_<time>.json beside the results file, when there is one. */
  leaderboardFile: string | undefined;
  /** Other results files found in the folder and not used (the newest one wins). */
  ignoredResultsFiles: string[];
}

export interface LoadRunOptions {
  /** compare and gate pair per-sample scores, so they refuse a run without sample logs (the default). */
  requireSamples?: boolean;
}

/** The first problem zod found, as `path: message`. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.join('.') || '(file)'}: ${issue.message}`;
}

/** Checks a parsed results file against the contract; `file` names it in the error. */
export function parseResults(value: unknown, file: string): ReadResults {
  const checked = resultsFileSchema.safeParse(value);
  if (!checked.success) {
    throw new AssayError('bad_data', `not an assay/lm-eval results file: ${firstIssue(checked.error)}`, {
      location: { file },
    });
  }
  return checked.data;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AssayError('bad_data', `cannot read results file: ${(error as Error).message}`, {
      location: { file },
      cause: error,
    });
  }
}

export function readResultsFile(file: string): ReadResults {
  return parseResults(readJson(file), file);
}

function resultsFilesIn(directory: string): string[] {
  return readdirSync(directory)
    .filter(isResultsFileName)
    .sort()
    .map((name) => path.join(directory, name));
}

function findResultsFiles(location: string): string[] {
  const here = resultsFilesIn(location);
  if (here.length) return here;
  // --output_path layout: results live one level down, under the sanitized model name.
  const below = readdirSync(location, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !isStagingName(entry.name))
    .flatMap((entry) => resultsFilesIn(path.join(location, entry.name)));
  return below.sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
}

/** The results file a location names (see the header), and the older ones beside it. */
export function locateResultsFile(location: string): { resultsFile: string; ignored: string[] } {
  if (!existsSync(location)) {
    throw new AssayError(
      'bad_argument',
      `run not found: ${location} (give a results directory or a results_*.json file)`,
    );
  }
  if (!statSync(location).isDirectory()) return { resultsFile: location, ignored: [] };
  const candidates = findResultsFiles(location);
  if (!candidates.length) {
    throw new AssayError('bad_argument', `no results_*.json in ${location} or its subdirectories`, {
      location: { file: location },
    });
  }
  // File names carry the run's timestamp, so the lexically last is the newest run.
  return { resultsFile: candidates[candidates.length - 1], ignored: candidates.slice(0, -1) };
}

/**
 * The leaf tasks of a results file: those with a config (lm-eval writes one per leaf), else those with
 * sample counts, else the entries of `results` that are not groups.
 */
export function leafTasksOf(results: ReadResults): string[] {
  const configured = Object.keys(results.configs);
  if (configured.length) return configured;
  const counted = Object.keys(results['n-samples']);
  if (counted.length) return counted;
  return Object.keys(results.results).filter((name) => !(name in (results.groups ?? {})));
}

/** Each leaf task's sample log beside the results file (same time stamp), when it exists. */
export function sampleFilesBeside(resultsFile: string, tasks: string[]): Map<string, string> {
  const stamp = stampOf(resultsFile);
  const files = new Map<string, string>();
  if (stamp === undefined) return files;
  const directory = path.dirname(resultsFile);
  for (const task of tasks) {
    const file = path.join(directory, samplesFileName(task, stamp));
    if (existsSync(file)) files.set(task, file);
  }
  return files;
}

export function loadRun(location: string, options: LoadRunOptions = {}): LoadedRun {
  const { resultsFile, ignored } = locateResultsFile(location);
  const raw = readJson(resultsFile);
  const results = parseResults(raw, resultsFile);
  const sampleFiles = sampleFilesBeside(resultsFile, leafTasksOf(results));
  if (sampleFiles.size === 0 && options.requireSamples !== false) {
    throw new AssayError(
      'bad_argument',
      `no sample logs beside ${resultsFile}: compare and gate pair per-sample scores, so the run must be made with --log_samples`,
      { location: { file: resultsFile } },
    );
  }
  const leaderboard = leaderboardFileFor(resultsFile);
  return {
    location,
    resultsFile,
    results,
    raw: raw as Record<string, unknown>,
    sampleFiles,
    leaderboardFile: leaderboard !== undefined && existsSync(leaderboard) ? leaderboard : undefined,
    ignoredResultsFiles: ignored,
  };
}
