/**
 * The names of one run's files, in one place for the writer and every reader (compare, gate, merge,
 * view): `<stem>_<time>.json` (stem `results`, or the name of a `.json` --output_path),
 * `samples_<task>_<time>.jsonl` and `leaderboard_<time>.json`, all sharing the run's time stamp, and
 * the hidden folder a run is staged in before its files are renamed into place.
 */
import path from 'node:path';

const STAMP = String.raw`\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d+`;
const STAMPED_JSON = new RegExp(`^(.*)_(${STAMP})\\.json$`);

/** Names a writer uses for its staging folder; readers skip these folders. */
export const STAGING_PREFIX = '.assay-staging-';

export function samplesFileName(task: string, stamp: string): string {
  return `samples_${task}_${stamp}.jsonl`;
}

export function leaderboardFileName(stamp: string): string {
  return `leaderboard_${stamp}.json`;
}

/** `results_<time>.json` (or `<stem>_<time>.json`), but not a sample log or a leaderboard. */
export function isResultsFileName(name: string): boolean {
  const match = STAMPED_JSON.exec(name);
  return match !== null && !name.startsWith('samples_') && match[1] !== 'leaderboard';
}

/** The time stamp a results file name carries, which its sample logs and leaderboard share. */
export function stampOf(resultsFile: string): string | undefined {
  return STAMPED_JSON.exec(path.basename(resultsFile))?.[2];
}

/** The leaderboard written with a results file (beside it, same time stamp). */
export function leaderboardFileFor(resultsFile: string): string | undefined {
  const stamp = stampOf(resultsFile);
  return stamp === undefined ? undefined : path.join(path.dirname(resultsFile), leaderboardFileName(stamp));
}

export function isStagingName(name: string): boolean {
  return name.startsWith(STAGING_PREFIX);
}

/** `samples_<task>_<time>.jsonl` → its task and time stamp. */
export function parseSamplesFileName(name: string): { task: string; stamp: string } | undefined {
  const match = new RegExp(`^samples_(.+)_(${STAMP})\\.jsonl$`).exec(name);
  return match ? { task: match[1], stamp: match[2] } : undefined;
}
