/**
 * `assay run --tasks list` (list_groups, list_tags, list_subtasks): lm-eval's listing, printed from the
 * task index with no model. Its own module, so that the dispatcher (main.ts) lists without loading the
 * run's stages, schemas and progress display (run.ts), as `assay ls` does.
 */
import path from 'node:path';
import { buildTaskIndex } from '../tasks/index.js';
import type { IndexSources } from '../tasks/index-types.js';
import { fileStamp } from '../util/file-stamp.js';
import { reportError, withFlagNames } from './errors.js';
import { splitList } from './flag-values.js';
import { tuneCompilerForListing } from './listing-compiler.js';
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
    // CLI > --config YAML, as for a run: the YAML's `tasks` and `include_path` list as the flags would.
    const configFile = typeof flags.config === 'string' ? path.resolve(flags.config) : undefined;
    const config = configFile ? await configValues(flags.config as string) : {};
    const given = (name: string) => (flags[name] !== undefined ? flags[name] : config[name]);
    const listing = isListing(splitList(given('tasks')));
    if (!listing) return undefined;
    const { includePath, indexCacheDir, askedPython } = taskSources({
      include_path: given('include_path'),
      python: given('python'),
    });
    const warnings: Array<[2, string]> = [];
    tuneCompilerForListing();
    const index = await buildTaskIndex({
      includePath,
      cacheDir: indexCacheDir,
      logger: { warn: (message) => warnings.push([2, `assay: warning: ${withFlagNames(message)}\n`]) },
    });
    return emitListing(
      args,
      { writes: [...warnings, [1, `${taskListing(index, listing)}\n`]], exitCode: 0 },
      {
        sources: askedPython ? undefined : withConfigFile(index.sources, configFile),
        cacheDir: indexCacheDir,
      },
    );
  } catch (error) {
    return reportError(error);
  }
}

/** A --config file's values, read as `assay run` reads them (its option table loaded for this only). */
async function configValues(file: string): Promise<Record<string, unknown>> {
  const [{ readConfigFile }, { configKeys }, { RUN_FLAGS }] = await Promise.all([
    import('./config-file.js'),
    import('./option-table.js'),
    import('./run-flags.js'),
  ]);
  return readConfigFile(file, configKeys(RUN_FLAGS), 'assay run');
}

/** The index's sources and the --config file the listing read (a listing kept is replayed while it is unchanged). */
function withConfigFile(
  sources: IndexSources | undefined,
  file: string | undefined,
): IndexSources | undefined {
  if (!sources || !file) return sources;
  const stamp = fileStamp(file);
  return stamp ? { ...sources, files: [...sources.files, [file, ...stamp]] } : undefined;
}
