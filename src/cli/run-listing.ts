/**
 * `assay run --tasks list` (list_groups, list_tags, list_subtasks): lm-eval's listing, printed from the
 * task index with no model. Its own module, so that the dispatcher (main.ts) lists without loading the
 * run's stages, schemas and progress display (run.ts), as `assay ls` does.
 */
import { buildTaskIndex } from '../tasks/index.js';
import { reportError, withFlagNames } from './errors.js';
import { splitList } from './flag-values.js';
import { emitListing } from './listing-replay.js';
import { isListing, taskListing } from './task-listing.js';
import { taskSources } from './task-sources.js';

/**
 * Prints the listing `--tasks` names and returns the exit code; undefined when `--tasks` names tasks to
 * run. `args`: the command line as parsed, under which the listing is kept (listing-replay.ts).
 */
export async function listingCommand(
  flags: Record<string, unknown>,
  args?: readonly string[],
): Promise<number | undefined> {
  try {
    const listing = isListing(splitList(flags.tasks));
    if (!listing) return undefined;
    const { includePath, indexCacheDir, askedPython } = taskSources(flags);
    const warnings: Array<[2, string]> = [];
    const index = await buildTaskIndex({
      includePath,
      cacheDir: indexCacheDir,
      logger: { warn: (message) => warnings.push([2, `assay: warning: ${withFlagNames(message)}\n`]) },
    });
    return emitListing(
      args,
      { writes: [...warnings, [1, `${taskListing(index, listing)}\n`]], exitCode: 0 },
      { sources: askedPython ? undefined : index.sources, cacheDir: indexCacheDir },
    );
  } catch (error) {
    return reportError(error);
  }
}
