/**
 * Cached scans of large task folders. lm-eval re-reads every task YAML on every command (13,879 files
 * for its own tree); assay keeps the last scan of a folder and reuses it while every file the scan read
 * (the folder's task files, and the files they include) has the same path and stamp (size, mtime, ctime
 * and inode: util/file-stamp.ts). One JSON file
 * per folder in `<assay cache>/task-index/`, named by a hash of the folder's path; deleting it (or the
 * whole folder) only costs the next command a fresh scan. A warm command's cost is mostly the ~15,000
 * stats of lm-eval's tree, so the file is laid out for that: the stamps first, in columns, and the
 * entries (by column too) parsed only once the stamps hold.
 *
 * The listing itself is checked through the folders' stamps: creating, removing or renaming a file
 * changes its folder's mtime and ctime, so while every folder keeps its stamp the folder lists the same
 * files and is not walked again. Each listed file is still stat-ed for its own stamp.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AssayError, type ErrorCode, type ErrorLocation } from '../errors.js';
import { SETTLED_MS } from '../util/file-digest.js';
import { ABSENT, type FileStamp, fileStamp, sameStamp } from '../util/file-stamp.js';
import { packagePath } from '../util/package-root.js';
import type { IndexEntry, IndexRoot, IndexSources, RootScan } from './index-types.js';

/** Bumped whenever what a scan records changes, so caches written by older code are not read. */
const FORMAT = 6;

export type Fingerprint = [file: string, ...stamp: FileStamp];

/** A file's fingerprint, its stamp's fields copied one by one (a spread runs the iterator protocol, per file in a cold scan). */
export function fingerprintOf(file: string, stamp: Readonly<FileStamp>): Fingerprint {
  return [file, stamp[0], stamp[1], stamp[2], stamp[3]];
}

/**
 * The entries of a scan by column (the cache of lm-eval's tree holds 13,000 of them, and a warm command
 * reads them all): parallel arrays parse into a few objects, where an object or tuple per entry would
 * make 13,000, each rebuilt once more into an IndexEntry.
 */
interface CachedEntries {
  /** Each entry's file, by its position in `listed`. */
  listed: number[];
  names: string[];
  /** One letter per entry, from KIND_LETTERS. */
  kinds: string;
  /** One letter per entry, from FORMAT_LETTERS ("-": none). */
  formats: string;
  /** Each entry's output type, as an index into `outputTypeNames` (-1: none). */
  outputTypes: number[];
  outputTypeNames: string[];
  /** The entries that have tags or members, by position, beside them. */
  tags: Array<[entry: number, tags: string[]]>;
  members: Array<[entry: number, members: string[]]>;
}

const KIND_LETTERS: Record<IndexEntry['kind'], string> = { task: 't', group: 'g', tag: 'a' };
const FORMAT_LETTERS: Record<NonNullable<IndexEntry['format']>, string> = {
  yaml: 'y',
  jsonl: 'j',
  typescript: 's',
};
const KINDS = new Map(Object.entries(KIND_LETTERS).map(([kind, letter]) => [letter, kind])) as Map<
  string,
  IndexEntry['kind']
>;
const FORMATS = new Map(Object.entries(FORMAT_LETTERS).map(([format, letter]) => [letter, format])) as Map<
  string,
  NonNullable<IndexEntry['format']>
>;

/**
 * A cache file is two JSON lines: what the scan read (checked first, file by file), then what it found,
 * parsed only once every file is unchanged.
 */
interface CacheStamps {
  format: number;
  /** This scan's own name, new at every write: what a product of the scan (a listing) records it was made from. */
  id: string;
  assay: string;
  root: string;
  recursive: boolean;
  /** The listed files in the scan's (sorted) order, relative to the root, with their stamps. */
  listed: StampColumns;
  /** Every folder walked (relative to the root; "" is the root) and its stamp. */
  dirs: StampColumns;
  /** Other files the scan read, absolute, with their stamps. */
  read: StampColumns;
}

/** Files and their stamps (util/file-stamp.ts), by column. */
interface StampColumns {
  paths: string[];
  sizes: number[];
  mtimes: number[];
  ctimes: number[];
  inos: number[];
}

function stampColumns(stamps: readonly Fingerprint[], name: (file: string) => string): StampColumns {
  // Each column made at its length (pushing would grow and copy it a dozen times), filled by an indexed
  // loop: here and below, in a cold process, V8's interpreter would destructure each element through the
  // iterator protocol.
  const count = stamps.length;
  const columns: StampColumns = {
    paths: new Array(count),
    sizes: new Array(count),
    mtimes: new Array(count),
    ctimes: new Array(count),
    inos: new Array(count),
  };
  for (let index = 0; index < count; index++) {
    const stamp = stamps[index];
    columns.paths[index] = name(stamp[0]);
    columns.sizes[index] = stamp[1];
    columns.mtimes[index] = stamp[2];
    columns.ctimes[index] = stamp[3];
    columns.inos[index] = stamp[4];
  }
  return columns;
}

interface CacheContent {
  found: CachedEntries;
  skipped: Array<{ file: string; code: ErrorCode; message: string; location: ErrorLocation; name?: string }>;
}

/** The entries in columns; undefined when one does not come from a listed file (not cached then). */
function packEntries(found: readonly IndexEntry[], listed: readonly string[]): CachedEntries | undefined {
  // A scan's entries come in listing order, so each one's file is found by walking on from the last.
  let next = 0;
  const positionOf = (file: string | undefined): number | undefined => {
    if (file === undefined) return undefined;
    for (let at = next; at < listed.length; at++) {
      if (listed[at] === file) {
        next = at;
        return at;
      }
    }
    const at = listed.indexOf(file);
    return at < 0 ? undefined : at;
  };
  const outputTypeIndex = new Map<string, number>();
  const packed: CachedEntries = {
    listed: [],
    names: [],
    kinds: '',
    formats: '',
    outputTypes: [],
    outputTypeNames: [],
    tags: [],
    members: [],
  };
  for (let index = 0; index < found.length; index++) {
    const entry = found[index];
    const at = positionOf(entry.path);
    if (at === undefined) return undefined;
    packed.listed.push(at);
    packed.names.push(entry.name);
    packed.kinds += KIND_LETTERS[entry.kind];
    packed.formats += entry.format === undefined ? '-' : FORMAT_LETTERS[entry.format];
    let outputType = -1;
    if (entry.outputType !== undefined) {
      outputType = outputTypeIndex.get(entry.outputType) ?? packed.outputTypeNames.length;
      if (outputType === packed.outputTypeNames.length) {
        outputTypeIndex.set(entry.outputType, outputType);
        packed.outputTypeNames.push(entry.outputType);
      }
    }
    packed.outputTypes.push(outputType);
    if (entry.tags !== undefined) packed.tags.push([index, entry.tags]);
    if (entry.members !== undefined) packed.members.push([index, entry.members]);
  }
  return packed;
}

/** One entry of the columns (a function of its own: V8 optimises it after a few calls, as it would not a loop that runs once). */
function unpackEntry(packed: CachedEntries, index: number, listed: readonly string[]): IndexEntry {
  const entry: IndexEntry = {
    name: packed.names[index],
    kind: KINDS.get(packed.kinds[index]) as IndexEntry['kind'],
    path: listed[packed.listed[index]],
  };
  const format = FORMATS.get(packed.formats[index]);
  if (format !== undefined) entry.format = format;
  const outputType = packed.outputTypes[index];
  if (outputType >= 0) entry.outputType = packed.outputTypeNames[outputType];
  return entry;
}

function unpackEntries(packed: CachedEntries, listed: readonly string[]): IndexEntry[] {
  const entries: IndexEntry[] = new Array(packed.names.length);
  for (let index = 0; index < entries.length; index++) entries[index] = unpackEntry(packed, index, listed);
  for (const [index, tags] of packed.tags) entries[index].tags = tags;
  for (const [index, members] of packed.members) entries[index].members = members;
  return entries;
}

let assayVersion: string | undefined;
/** The package's version, read once. */
export function version(): string {
  if (assayVersion === undefined) {
    try {
      const manifest = packagePath('package.json');
      assayVersion = String((JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version);
    } catch {
      assayVersion = 'unknown';
    }
  }
  return assayVersion;
}

/** The cache file of a root. */
export function cacheFileOf(cacheDir: string, root: IndexRoot): string {
  const key = JSON.stringify([path.resolve(root.dir), root.recursive !== false]);
  return path.join(cacheDir, `${createHash('sha256').update(key).digest('hex').slice(0, 24)}.json`);
}

/** Whether every file of a column set still has its stamp (`paths` given: the columns' files, absolute). */
function allUnchanged(columns: StampColumns, paths: readonly string[] = columns.paths): boolean {
  const { sizes, mtimes, ctimes, inos } = columns;
  for (let index = 0; index < paths.length; index++)
    if (!sameStamp(paths[index], [sizes[index], mtimes[index], ctimes[index], inos[index]])) return false;
  return true;
}

/** Fingerprints of files, or undefined when one of them is gone. */
export function fingerprints(
  files: readonly string[],
  name: (file: string) => string,
): Fingerprint[] | undefined {
  const out: Fingerprint[] = [];
  for (const file of files) {
    const found = fileStamp(file);
    if (!found) return undefined;
    out.push(fingerprintOf(name(file), found));
  }
  return out;
}

/** What walking a root found: its candidate files (sorted) and the folders walked. */
export interface Listing {
  files: string[];
  dirs: string[];
}

/**
 * A root's cache file: its stamps, parsed, and the bytes of its content (decoded only by a caller that
 * needs the entries: the stamps line is half of lm-eval's 2.3 MB).
 */
function readCache(cacheDir: string, root: IndexRoot): { cache: CacheStamps; content: Buffer } | undefined {
  let cache: CacheStamps;
  let content: Buffer;
  try {
    const bytes = readFileSync(cacheFileOf(cacheDir, root));
    const newline = bytes.indexOf(10);
    if (newline < 0) return undefined;
    cache = JSON.parse(bytes.toString('utf8', 0, newline)) as CacheStamps;
    content = bytes.subarray(newline + 1);
  } catch {
    return undefined;
  }
  const valid =
    cache.format === FORMAT &&
    cache.assay === version() &&
    cache.root === path.resolve(root.dir) &&
    cache.recursive === (root.recursive !== false);
  return valid ? { cache, content } : undefined;
}

function prefixOf(root: IndexRoot): string {
  const rootDir = path.resolve(root.dir);
  return rootDir.endsWith(path.sep) ? rootDir : rootDir + path.sep;
}

/**
 * The files a root's cached scan lists, when the cache's stamps still hold: every folder has its mtime
 * (or, given `listing`, the walk found the same files), and every file it read its size and mtime.
 * `'relist'`: a folder's mtime changed, walk it and ask again; undefined: no usable cache.
 */
function validListing(
  cache: CacheStamps,
  root: IndexRoot,
  listing?: Listing,
): string[] | 'relist' | undefined {
  const prefix = prefixOf(root);
  const absolute = (relative: string) =>
    relative === '' ? prefix.slice(0, -1) || prefix : prefix + relative;
  let listed: string[];
  if (listing) {
    listed = listing.files;
    const cachedPaths = cache.listed.paths;
    if (cachedPaths.length !== listed.length) return undefined;
    for (let index = 0; index < listed.length; index++) {
      if (prefix + cachedPaths[index] !== listed[index]) return undefined;
    }
  } else {
    if (!allUnchanged(cache.dirs, cache.dirs.paths.map(absolute))) return 'relist';
    listed = cache.listed.paths.map((relative) => prefix + relative);
  }
  if (!allUnchanged(cache.listed, listed)) return undefined;
  if (!allUnchanged(cache.read)) return undefined;
  return listed;
}

/**
 * The cached scan of `root`, when every file it read is unchanged and the folder lists the same files.
 * Without `listing`, the folders' mtimes vouch for the listing: `'relist'` means one changed and the
 * caller should walk the folder and ask again with what it found. Undefined: no usable cache.
 */
export function readCachedScan(
  cacheDir: string,
  root: IndexRoot,
  listing?: Listing,
): RootScan | 'relist' | undefined {
  const read = readCache(cacheDir, root);
  if (!read) return undefined;
  const { cache } = read;
  const listed = validListing(cache, root, listing);
  if (listed === undefined || listed === 'relist') return listed;
  let content: CacheContent;
  try {
    content = JSON.parse(read.content.toString('utf8')) as CacheContent;
  } catch {
    return undefined;
  }
  return {
    found: unpackEntries(content.found, listed),
    skipped: content.skipped.map(({ file, code, message, location, name }) => ({
      file,
      error: new AssayError(code, message, { location }),
      ...(name === undefined ? {} : { name }),
    })),
    listed,
    read: cache.read.paths,
    cacheId: cache.id,
  };
}

/**
 * Whether an index built from `sources` would be built the same now: each root's cached scan is the one
 * recorded and still valid (its folders' mtimes, its files' sizes and mtimes), and every other file has
 * its size and mtime. The scans' entries are not parsed.
 */
export function sourcesUnchanged(cacheDir: string, sources: IndexSources): boolean {
  for (const { dir, recursive, scan } of sources.roots) {
    const root = { dir, recursive };
    const read = readCache(cacheDir, root);
    if (read?.cache.id !== scan) return false;
    const listed = validListing(read.cache, root);
    if (listed === undefined || listed === 'relist') return false;
  }
  for (const [file, ...stamp] of sources.files) if (!sameStamp(file, stamp)) return false;
  return true;
}

/**
 * Writes a scan, with the fingerprints its files and folders had before they were read (`before`), so
 * that one changed during the scan is seen as changed next time, and returns the id it is written under.
 * Best effort: a cache that cannot be written (read-only home, full disk) only means the next command
 * scans again (undefined then). Written synchronously: on libuv's threads while the overrides were
 * compared, its five requests each waited for the main thread, and the command ended no sooner.
 */
export function writeCachedScan(
  cacheDir: string,
  root: IndexRoot,
  scan: RootScan,
  before: {
    files: readonly Fingerprint[];
    dirs: readonly Fingerprint[];
    /** Stamps of the other files read, taken as they were read; the rest are stamped now. */
    read?: ReadonlyMap<string, FileStamp>;
  },
): string | undefined {
  // An include that was not found is stamped absent: the scan holds until it is created.
  const read: Fingerprint[] = scan.read.map((file) => [
    file,
    ...(before.read?.get(file) ?? fileStamp(file) ?? ABSENT),
  ]);
  // A file changed in the last seconds could change again within the same (coarse) mtime and size;
  // such a scan is not cached, and the next command scans again (git's "racily clean" rule).
  const settled = Date.now() - SETTLED_MS;
  for (const stamps of [before.files, before.dirs, read])
    for (let index = 0; index < stamps.length; index++) if (stamps[index][2] >= settled) return undefined;
  const prefix = prefixOf(root);
  const relative = (file: string) => (file.startsWith(prefix) ? file.slice(prefix.length) : '');
  // Every entry of a scan comes from a listed file; anything else is not cached.
  const found = packEntries(scan.found, scan.listed);
  if (!found) return undefined;
  const cache: CacheStamps = {
    format: FORMAT,
    id: randomUUID(),
    assay: version(),
    root: path.resolve(root.dir),
    recursive: root.recursive !== false,
    listed: stampColumns(before.files, relative),
    dirs: stampColumns(before.dirs, relative),
    read: stampColumns(read, (file) => file),
  };
  const content: CacheContent = {
    found,
    skipped: scan.skipped.map(({ file, error, name }) => ({
      file,
      code: error.code,
      message: error.message,
      location: error.location,
      ...(name === undefined ? {} : { name }),
    })),
  };
  const target = cacheFileOf(cacheDir, root);
  // Named by the scan's id: two writes of one folder's scan, by two processes or one, never share it.
  const temporary = `${target}.${cache.id}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(temporary, `${JSON.stringify(cache)}\n${JSON.stringify(content)}`);
    renameSync(temporary, target);
    return cache.id;
  } catch {
    rmSync(temporary, { force: true });
    return undefined;
  }
}
