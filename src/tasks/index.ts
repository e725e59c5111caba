/**
 * The task index: every task, group and tag name that `--tasks` can refer to, found by scanning the
 * built-in `tasks/` folder and each `--include_path` folder. Indexing reads and parses YAML (includes
 * merged) but imports no code and reads no data, and keeps only the few keys it needs per file. A large
 * folder's scan is cached (index-cache.ts) and reused until any of its files changes.
 */
import path from 'node:path';
import type { FileStamp } from '../util/file-stamp.js';
import { builtinTasksDir } from './builtin-dir.js';
import { type Fingerprint, fingerprints, readCachedScan, writeCachedScan } from './index-cache.js';
import type {
  IndexEntry,
  IndexRoot,
  IndexSources,
  RootScan,
  SkippedFile,
  TaskOverride,
} from './index-types.js';
import { OverrideComparisons, overrideSummaries } from './overrides.js';
import { walkRoot } from './root-walk.js';

export { builtinTasksDir } from './builtin-dir.js';
export type {
  EntryFormat,
  EntryKind,
  IndexEntry,
  IndexRoot,
  IndexSources,
  RootScan,
  SkippedFile,
  TaskOverride,
} from './index-types.js';

export interface TaskLogger {
  warn(message: string): void;
}

export interface TaskIndex {
  entries: Map<string, IndexEntry>;
  /**
   * Files that could not be indexed, with the reason (they are also reported to the logger) and, when the
   * file itself parses, the name it defines.
   */
  skipped: SkippedFile[];
  /** Names a later root defined again, with whether the configs differ (absent: none recorded). */
  overrides?: TaskOverride[];
  /**
   * What the index was built from, when every root's scan is cached and every comparison kept (absent:
   * something was read that is not recorded, so nothing made from this index may be cached).
   */
  sources?: IndexSources;
}

export interface BuildIndexOptions {
  includePath?: readonly string[];
  /** Extra roots scanned after includePath. */
  extraRoots?: readonly IndexRoot[];
  /** The built-in task folder; `false` leaves it out (tests). Defaults to the package's `tasks/`. */
  builtinDir?: string | false;
  logger?: TaskLogger;
  /**
   * Folder for cached scans of large roots (`<assay cache>/task-index`); absent: no cache. A cached scan
   * is used only while every file it read has the same path and stamp (util/file-stamp.ts).
   */
  cacheDir?: string;
  /**
   * Warn once per pair of folders about the overrides whose configs differ (default true); `false` when
   * the caller lists the overrides itself.
   */
  summarizeOverrides?: boolean;
}

/** Roots with fewer candidate files are scanned directly: checking a cache costs about as much. */
export const CACHE_MIN_FILES = 50;

/** A root's scan, from the cache when it is still valid; large roots are cached after a fresh scan. */
async function scanRootCached(root: IndexRoot, cacheDir: string | undefined): Promise<RootScan> {
  if (cacheDir !== undefined) {
    const cached = readCachedScan(cacheDir, root);
    if (cached && cached !== 'relist') return cached;
  }
  const { scanRoot } = await import('./root-scan.js');
  // Stamped before reading: a file or folder that changes while it is read is seen as changed next time.
  const dirs: Fingerprint[] = [];
  const listing = walkRoot(root, dirs);
  if (cacheDir === undefined || listing.files.length < CACHE_MIN_FILES) return scanRoot(root, listing.files);
  const relisted = readCachedScan(cacheDir, root, listing);
  let scan: RootScan;
  let files: Fingerprint[] | undefined;
  let read: Map<string, FileStamp> | undefined;
  if (relisted && relisted !== 'relist') {
    scan = relisted;
    files = fingerprints(listing.files, (file) => file);
  } else {
    ({ scan, stamps: files, readStamps: read } = scanRoot(root, listing.files, { stamped: true }));
  }
  // Rewritten also when only folder times changed (a file created and removed again), so the next
  // command need not walk the folder.
  const cacheId = files ? writeCachedScan(cacheDir, root, scan, { files, dirs, read }) : undefined;
  return { ...scan, cacheId };
}

export async function buildTaskIndex(options: BuildIndexOptions = {}): Promise<TaskIndex> {
  const roots: IndexRoot[] = [];
  const builtin = options.builtinDir === undefined ? builtinTasksDir() : options.builtinDir;
  if (builtin !== false) roots.push({ dir: builtin });
  for (const dir of options.includePath ?? []) roots.push({ dir });
  roots.push(...(options.extraRoots ?? []));
  // The same folder twice (e.g. --include_path naming the built-in folder) is scanned once.
  const seenRoots = new Set<string>();
  const unique = roots.filter((root) => {
    const key = `${path.resolve(root.dir)}\u0000${root.recursive !== false}`;
    if (seenRoots.has(key)) return false;
    seenRoots.add(key);
    return true;
  });

  const scans: RootScan[] = [];
  for (const root of unique) scans.push(await scanRootCached(root, options.cacheDir));
  const skipped = scans.flatMap((scan) => scan.skipped).sort((a, b) => a.file.localeCompare(b.file));
  for (const { file, error } of skipped) options.logger?.warn(`skipping ${file}: ${error.format()}`);

  const entries = new Map<string, IndexEntry>();
  /** Each root's entries by name, in the order of the roots. */
  const entriesOfRoot: Array<Map<string, IndexEntry>> = [];
  /** The folder, as given, of the earlier root whose entry `entry` is. */
  const rootOf = (entry: IndexEntry): string => {
    let position = entriesOfRoot.length - 1;
    while (entriesOfRoot[position].get(entry.name) !== entry) position--;
    return unique[position].dir;
  };
  const replacements: Array<Omit<TaskOverride, 'sameConfig' | 'differingKeys'>> = [];
  const pairs: Array<[used: IndexEntry, replaced: IndexEntry]> = [];
  const builtinRoot = builtin === false ? undefined : path.resolve(builtin);
  const comparisons = OverrideComparisons.forRoots(
    options.cacheDir,
    unique.map((root) => path.resolve(root.dir)),
  );
  for (const [position, { found, skipped: unreadable }] of scans.entries()) {
    // Within one root the first file (in path order) wins; a later root overrides earlier ones.
    const rootEntries = new Map<string, IndexEntry>();
    // Indexed loops, and values without destructuring: 13,000 entries, in V8's interpreter in a cold command.
    for (let at = 0; at < found.length; at++) {
      const entry = found[at];
      const existing = rootEntries.get(entry.name);
      if (existing) {
        options.logger?.warn(
          `duplicate ${entry.kind} name "${entry.name}": using ${existing.path}, ignoring ${entry.path}`,
        );
        continue;
      }
      rootEntries.set(entry.name, entry);
    }
    const root = unique[position].dir;
    // forEach: a for-of loop makes an iterator result per entry in V8's interpreter.
    rootEntries.forEach((entry, name) => {
      const existing = entries.get(name);
      if (existing && entry.kind !== 'tag') {
        const replacedRoot = rootOf(existing);
        replacements.push({
          name,
          kind: entry.kind,
          path: entry.path as string,
          root,
          replaced: existing.path as string,
          replacedRoot,
          builtin: builtinRoot !== undefined && path.resolve(replacedRoot) === builtinRoot,
        });
        pairs.push([entry, existing]);
      }
      entries.set(name, entry);
    });
    entriesOfRoot.push(rootEntries);
    // A later folder's definition that failed to load would have replaced the earlier one: using the
    // earlier one instead would run a config the user did not ask for, so the name resolves to the
    // failure (the manager's "defined in F, which failed to load") rather than to the built-in.
    for (const { name } of unreadable) if (name !== undefined && !rootEntries.has(name)) entries.delete(name);
  }
  const compared = await comparisons.compareAll(pairs);
  const overrides: TaskOverride[] = replacements.map((replacement, index) => ({
    ...replacement,
    ...compared[index],
  }));
  comparisons.save();
  const comparedFiles = comparisons.stamps(pairs.length);
  const sources: IndexSources | undefined =
    options.cacheDir !== undefined && comparedFiles && scans.every((scan) => scan.cacheId !== undefined)
      ? {
          roots: unique.map((root, position) => ({
            dir: path.resolve(root.dir),
            recursive: root.recursive !== false,
            scan: scans[position].cacheId as string,
          })),
          files: comparedFiles,
        }
      : undefined;
  if (options.summarizeOverrides !== false)
    for (const line of overrideSummaries(overrides)) options.logger?.warn(line);

  const tags = new Map<string, string[]>();
  entries.forEach((entry) => {
    const entryTags = entry.tags;
    if (entry.kind !== 'task' || entryTags === undefined) return;
    for (let at = 0; at < entryTags.length; at++) {
      const members = tags.get(entryTags[at]);
      if (members) members.push(entry.name);
      else tags.set(entryTags[at], [entry.name]);
    }
  });
  for (const [tag, members] of tags) {
    const existing = entries.get(tag);
    if (existing) {
      options.logger?.warn(
        `tag "${tag}" has the same name as the ${existing.kind} in ${existing.path}; ignoring the tag`,
      );
      continue;
    }
    entries.set(tag, { name: tag, kind: 'tag', tasks: members.sort() });
  }
  return { entries, skipped, overrides, ...(sources ? { sources } : {}) };
}
