/**
 * The task index: every task, group and tag name that `--tasks` can refer to, found by scanning the
 * built-in `tasks/` folder and each `--include_path` folder. Indexing reads and parses YAML (includes
 * merged) but imports no code and reads no data, and keeps only the few keys it needs per file. A large
 * folder's scan is cached (index-cache.ts) and reused until any of its files changes.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssayError } from '../errors.js';
import {
  type Fingerprint,
  fingerprints,
  type Listing,
  readCachedScan,
  writeCachedScan,
} from './index-cache.js';
import type { IndexEntry, IndexRoot, RootScan, SkippedFile, TaskOverride } from './index-types.js';
import { OverrideComparisons, overrideSummaries } from './overrides.js';
import { loadYamlSync, locateLoadError, ownMapping, type YamlMapping } from './yaml-loader.js';

export type {
  EntryFormat,
  EntryKind,
  IndexEntry,
  IndexRoot,
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
   * is used only while every file it read has the same path, size and mtime.
   */
  cacheDir?: string;
  /**
   * Warn once per pair of folders about the overrides whose configs differ (default true); `false` when
   * the caller lists the overrides itself.
   */
  summarizeOverrides?: boolean;
}

const IGNORED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.ipynb_checkpoints']);
/** TypeScript task modules are named `<task>.task.ts` so the index can tell them from helpers like utils.ts. */
const MODULE_TASK = /\.task\.(ts|mts|js|mjs)$/;
const CANDIDATE = /\.(ya?ml|jsonl)$/;
/** Roots with fewer candidate files are scanned directly: checking a cache costs about as much. */
export const CACHE_MIN_FILES = 50;

/** `tasks/` at the package root: two levels up from both src/tasks/ and dist/tasks/. */
export function builtinTasksDir(): string {
  return fileURLToPath(new URL('../../tasks/', import.meta.url));
}

/** The candidate files of a root, sorted by path (as lm-eval sorts by posix path: decides duplicates). */
export function listRoot(root: IndexRoot): string[] {
  return walkRoot(root).files;
}

/**
 * The candidate files of a root (sorted), and every folder walked; with `stamps`, each folder's size
 * and mtime taken just before it is read.
 */
export function walkRoot(root: IndexRoot, stamps?: Fingerprint[]): Listing {
  const files: string[] = [];
  const dirs: string[] = [];
  // Paths are joined by hand: the folder is already absolute and normal, and path.join would
  // re-normalise each of thousands of names.
  const walk = (dir: string): void => {
    let entries: import('node:fs').Dirent[];
    const stats = stamps ? statSync(dir, { throwIfNoEntry: false }) : undefined;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw error;
    }
    dirs.push(dir);
    if (stamps && stats) stamps.push([dir, stats.size, stats.mtimeMs]);
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const entry of entries) {
      const full = prefix + entry.name;
      if (entry.isDirectory()) {
        if (root.recursive !== false && !IGNORED_DIRS.has(entry.name)) walk(full);
      } else if (CANDIDATE.test(entry.name) || MODULE_TASK.test(entry.name)) {
        files.push(full);
      }
    }
  };
  walk(path.resolve(root.dir));
  return { files: files.sort(), dirs };
}

const JSONL_TASK_KEYS = new Set(['id', 'prompt', 'targets', 'metric', 'extras']);
const FIRST_LINE_LIMIT = 1 << 22;

/**
 * A JSONL file is a task when its first record is a task line: an object with `prompt` and `targets` and
 * no keys a task line cannot have. Data files beside YAML tasks, and assay's own sample logs (whose
 * `doc` may hold a prompt), are not. Only the first line is read.
 */
export function isJsonlTask(file: string): boolean {
  const descriptor = openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let length = 0;
    const buffer = Buffer.alloc(65536);
    while (length < FIRST_LINE_LIMIT) {
      const bytesRead = readSync(descriptor, buffer, 0, buffer.length, length);
      if (bytesRead === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
      length += bytesRead;
      const text = Buffer.concat(chunks).toString('utf8');
      const line = firstRecordLine(text, bytesRead < buffer.length);
      if (line !== undefined) return isTaskLine(line);
    }
    return false;
  } finally {
    closeSync(descriptor);
  }
}

/** The first non-blank, non-comment line once it is complete (or the file ended). */
function firstRecordLine(text: string, ended: boolean): string | undefined {
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    if (end < 0 && !ended) return undefined;
    const line = text.slice(start, end < 0 ? text.length : end).trim();
    if (line !== '' && !line.startsWith('#')) return line;
    if (end < 0) return '';
    start = end + 1;
  }
  return '';
}

function isTaskLine(line: string): boolean {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return false;
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return false;
  const keys = Object.keys(record);
  return keys.includes('prompt') && keys.includes('targets') && keys.every((key) => JSONL_TASK_KEYS.has(key));
}

/**
 * lm-eval's kind detection (tasks/_index.py): `group` makes a group, `task` a task. One exception: a
 * config whose `task` is a single name and that also has `group` is an old-style (v0.4.0) task whose
 * `group` acted as a tag, so it is a task here.
 */
export function kindOf(config: YamlMapping): 'task' | 'group' | undefined {
  if (typeof config.task === 'string') return 'task';
  if (typeof config.group === 'string') return 'group';
  return undefined;
}

function memberName(item: unknown): string {
  if (typeof item === 'string') return item;
  if (item !== null && typeof item === 'object') {
    const record = item as Record<string, unknown>;
    if (typeof record.group === 'string') return record.group;
    if (typeof record.task === 'string') return record.task;
  }
  return String(item);
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** The keys an index entry is made of. */
const INDEX_KEYS = ['task', 'group', 'tag', 'output_type'];

/** The index entry a file defines, and every file its load read. */
function entryOfFile(file: string, read: Set<string>): IndexEntry | undefined {
  if (file.endsWith('.jsonl')) {
    if (!isJsonlTask(file)) return undefined;
    return { name: path.basename(file, '.jsonl'), kind: 'task', format: 'jsonl', path: file };
  }
  if (MODULE_TASK.test(file)) {
    return {
      name: path.basename(file).replace(MODULE_TASK, ''),
      kind: 'task',
      format: 'typescript',
      path: file,
    };
  }
  const loaded = loadYamlSync(file, { keys: INDEX_KEYS });
  for (const included of loaded.files) read.add(included);
  const { config } = loaded;
  const kind = kindOf(config);
  // Files with neither key are templates meant to be included; lm-eval skips them too.
  if (!kind) return undefined;
  if (kind === 'group') {
    const task = config.task;
    const members = Array.isArray(task) ? task : task === undefined ? [] : [task];
    return { name: String(config.group), kind, format: 'yaml', path: file, members: members.map(memberName) };
  }
  const entry: IndexEntry = { name: String(config.task), kind, format: 'yaml', path: file };
  if (typeof config.output_type === 'string') entry.outputType = config.output_type;
  const tags = stringList(config.tag);
  if (tags.length) entry.tags = tags;
  return entry;
}

/** The name a YAML file that failed to load defines, read from the file alone (its includes may be what failed). */
function definedName(file: string): { name?: string } {
  if (!/\.ya?ml$/.test(file)) return {};
  const own = ownMapping(file);
  const kind = own && kindOf(own);
  if (!own || !kind) return {};
  return { name: String(kind === 'task' ? own.task : own.group) };
}

/** Scans one root: every candidate file, parsed once. */
export function scanRoot(root: IndexRoot, listed: readonly string[] = listRoot(root)): RootScan {
  const found: IndexEntry[] = [];
  const skipped: RootScan['skipped'] = [];
  const read = new Set<string>();
  for (const file of listed) {
    try {
      const entry = entryOfFile(file, read);
      if (entry) found.push(entry);
    } catch (thrown) {
      const error = locateLoadError(thrown);
      if (!(error instanceof AssayError)) throw error;
      skipped.push({ file, error, ...definedName(file) });
    }
  }
  const listedSet = new Set(listed);
  return {
    found,
    skipped,
    listed: [...listed],
    read: [...read].filter((file) => !listedSet.has(file)).sort(),
  };
}

/** A root's scan, from the cache when it is still valid; large roots are cached after a fresh scan. */
function scanRootCached(root: IndexRoot, cacheDir: string | undefined): RootScan {
  if (cacheDir !== undefined) {
    const cached = readCachedScan(cacheDir, root);
    if (cached && cached !== 'relist') return cached;
  }
  // Stamped before reading: a file or folder that changes while it is read is seen as changed next time.
  const dirs: Fingerprint[] = [];
  const listing = walkRoot(root, dirs);
  if (cacheDir === undefined || listing.files.length < CACHE_MIN_FILES) return scanRoot(root, listing.files);
  const relisted = readCachedScan(cacheDir, root, listing);
  const files = fingerprints(listing.files, (file) => file);
  const scan = relisted && relisted !== 'relist' ? relisted : scanRoot(root, listing.files);
  // Rewritten also when only folder times changed (a file created and removed again), so the next
  // command need not walk the folder.
  if (files) writeCachedScan(cacheDir, root, scan, { files, dirs });
  return scan;
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

  const scans = unique.map((root) => scanRootCached(root, options.cacheDir));
  const skipped = scans.flatMap((scan) => scan.skipped).sort((a, b) => a.file.localeCompare(b.file));
  for (const { file, error } of skipped) options.logger?.warn(`skipping ${file}: ${error.format()}`);

  const entries = new Map<string, IndexEntry>();
  /** Each entry's root folder, as given. */
  const rootOf = new Map<IndexEntry, string>();
  const overrides: TaskOverride[] = [];
  const builtinRoot = builtin === false ? undefined : path.resolve(builtin);
  const comparisons = OverrideComparisons.forRoots(
    options.cacheDir,
    unique.map((root) => path.resolve(root.dir)),
  );
  for (const [position, { found, skipped: unreadable }] of scans.entries()) {
    // Within one root the first file (in path order) wins; a later root overrides earlier ones.
    const rootEntries = new Map<string, IndexEntry>();
    for (const entry of found) {
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
    for (const [name, entry] of rootEntries) {
      const existing = entries.get(name);
      if (existing && entry.kind !== 'tag') {
        const replacedRoot = rootOf.get(existing) as string;
        overrides.push({
          name,
          kind: entry.kind,
          path: entry.path as string,
          root,
          replaced: existing.path as string,
          replacedRoot,
          builtin: builtinRoot !== undefined && path.resolve(replacedRoot) === builtinRoot,
          ...comparisons.compare(entry, existing),
        });
      }
      entries.set(name, entry);
      rootOf.set(entry, root);
    }
    // A later folder's definition that failed to load would have replaced the earlier one: using the
    // earlier one instead would run a config the user did not ask for, so the name resolves to the
    // failure (the manager's "defined in F, which failed to load") rather than to the built-in.
    for (const { name } of unreadable) if (name !== undefined && !rootEntries.has(name)) entries.delete(name);
  }
  comparisons.save();
  if (options.summarizeOverrides !== false)
    for (const line of overrideSummaries(overrides)) options.logger?.warn(line);

  const tags = new Map<string, string[]>();
  for (const entry of entries.values()) {
    if (entry.kind !== 'task') continue;
    for (const tag of entry.tags ?? []) {
      if (!tags.has(tag)) tags.set(tag, []);
      tags.get(tag)?.push(entry.name);
    }
  }
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
  return { entries, skipped, overrides };
}
