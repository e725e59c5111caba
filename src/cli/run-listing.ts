/**
 * `assay run --tasks list` (list_groups, list_tags, list_subtasks): lm-eval's listing, printed from the
 * task index with no model. Its own module, so that the dispatcher (main.ts) lists without loading the
 * run's stages, schemas and progress display (run.ts), as `assay ls` does.
 */
import { buildTaskIndex } from '../tasks/index.js';
import { reportError, withFlagNames } from './errors.js';
import { splitList } from './flag-values.js';
import { isListing, taskListing } from './task-listing.js';
import { taskSources } from './task-sources.js';

/** Prints the listing `--tasks` names and returns the exit code; undefined when `--tasks` names tasks to run. */
export async function listingCommand(flags: Record<string, unknown>): Promise<number | undefined> {
  try {
    const listing = isListing(splitList(flags.tasks));
    if (!listing) return undefined;
    const { includePath, indexCacheDir } = taskSources(flags);
    const index = await buildTaskIndex({
      includePath,
      cacheDir: indexCacheDir,
      logger: { warn: (message) => process.stderr.write(`assay: warning: ${withFlagNames(message)}\n`) },
    });
    process.stdout.write(`${taskListing(index, listing)}\n`);
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
