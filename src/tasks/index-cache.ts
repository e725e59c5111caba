/**
 * Cached scans of large task folders. lm-eval re-reads every task YAML on every command (13,879 files
 * for its own tree); assay keeps the last scan of a folder and reuses it while every file the scan read
 * (the folder's task files, and the files they include) has the same path, size and mtime. One JSON file
 * per folder in `<assay cache>/task-index/`, named by a hash of the folder's path; deleting it (or the
 * whole folder) only costs the next command a fresh scan.
 *
 * The listing itself is checked through the folders' mtimes: creating, removing or renaming a file
 * changes its folder's mtime, so while every folder keeps its mtime the folder lists the same files and
 * is not walked again. Each listed file is still stat-ed for its own size and mtime.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssayError, type ErrorCode, type ErrorLocation } from '../errors.js';
import { SETTLED_MS } from '../util/file-digest.js';
import type { IndexEntry, IndexRoot, RootScan } from './index-types.js';

/** Bumped whenever what a scan records changes, so caches written by older code are not read. */
const FORMAT = 3;

export type Fingerprint = [file: string, size: number, mtimeMs: number];

/** An entry as a tuple (the cache of lm-eval's tree holds 13,000 of them): its file by listed position. */
type CachedEntry = [
  listed: number,
  name: string,
  kind: IndexEntry['kind'],
  format: IndexEntry['format'] | null,
  outputType: string | null,
  tags: string[] | null,
  members: string[] | null,
];

interface CacheFile {
  format: number;
  assay: string;
  root: string;
  recursive: boolean;
  /** The listed files in the scan's (sorted) order, relative to the root, with their sizes and mtimes. */
  listed: { paths: string[]; sizes: number[]; mtimes: number[] };
  /** Every folder walked (relative to the root; "" is the root) and its mtime. */
  dirs: { paths: string[]; mtimes: number[] };
  /** Other files the scan read, absolute. */
  read: Fingerprint[];
  found: CachedEntry[];
  skipped: Array<{ file: string; code: ErrorCode; message: string; location: ErrorLocation; name?: string }>;
}

function packEntry(entry: IndexEntry, position: Map<string, number>): CachedEntry | undefined {
  const listed = entry.path === undefined ? undefined : position.get(entry.path);
  if (listed === undefined) return undefined;
  return [
    listed,
    entry.name,
    entry.kind,
    entry.format ?? null,
    entry.outputType ?? null,
    entry.tags ?? null,
    entry.members ?? null,
  ];
}

function unpackEntry(packed: CachedEntry, listed: readonly string[]): IndexEntry {
  const [position, name, kind, format, outputType, tags, members] = packed;
  const entry: IndexEntry = { name, kind, path: listed[position] };
  if (format !== null) entry.format = format;
  if (outputType !== null) entry.outputType = outputType;
  if (tags !== null) entry.tags = tags;
  if (members !== null) entry.members = members;
  return entry;
}

let assayVersion: string | undefined;
function version(): string {
  if (assayVersion === undefined) {
    try {
      const manifest = fileURLToPath(new URL('../../package.json', import.meta.url));
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

function stamp(file: string): [number, number] | undefined {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? [stats.size, stats.mtimeMs] : undefined;
}

/** Fingerprints of files, or undefined when one of them is gone. */
export function fingerprints(
  files: readonly string[],
  name: (file: string) => string,
): Fingerprint[] | undefined {
  const out: Fingerprint[] = [];
  for (const file of files) {
    const found = stamp(file);
    if (!found) return undefined;
    out.push([name(file), found[0], found[1]]);
  }
  return out;
}

/** What walking a root found: its candidate files (sorted) and the folders walked. */
export interface Listing {
  files: string[];
  dirs: string[];
}

function readCache(cacheDir: string, root: IndexRoot): CacheFile | undefined {
  let cache: CacheFile;
  try {
    cache = JSON.parse(readFileSync(cacheFileOf(cacheDir, root), 'utf8')) as CacheFile;
  } catch {
    return undefined;
  }
  const valid =
    cache.format === FORMAT &&
    cache.assay === version() &&
    cache.root === path.resolve(root.dir) &&
    cache.recursive === (root.recursive !== false);
  return valid ? cache : undefined;
}

function prefixOf(root: IndexRoot): string {
  const rootDir = path.resolve(root.dir);
  return rootDir.endsWith(path.sep) ? rootDir : rootDir + path.sep;
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
  const cache = readCache(cacheDir, root);
  if (!cache) return undefined;
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
    const { paths, mtimes } = cache.dirs;
    for (let index = 0; index < paths.length; index++) {
      const now = stamp(absolute(paths[index]));
      if (!now || now[1] !== mtimes[index]) return 'relist';
    }
    listed = cache.listed.paths.map((relative) => prefix + relative);
  }
  const { sizes, mtimes } = cache.listed;
  for (let index = 0; index < listed.length; index++) {
    const now = stamp(listed[index]);
    if (!now || now[0] !== sizes[index] || now[1] !== mtimes[index]) return undefined;
  }
  for (const [file, size, mtime] of cache.read) {
    const now = stamp(file);
    if (!now || now[0] !== size || now[1] !== mtime) return undefined;
  }
  return {
    found: cache.found.map((packed) => unpackEntry(packed, listed)),
    skipped: cache.skipped.map(({ file, code, message, location, name }) => ({
      file,
      error: new AssayError(code, message, { location }),
      ...(name === undefined ? {} : { name }),
    })),
    listed,
    read: cache.read.map(([file]) => file),
  };
}

/**
 * Writes a scan, with the fingerprints its files and folders had before they were read (`before`), so
 * that one changed during the scan is seen as changed next time. Best effort: a cache that cannot be
 * written (read-only home, full disk) only means the next command scans again.
 */
export function writeCachedScan(
  cacheDir: string,
  root: IndexRoot,
  scan: RootScan,
  before: { files: readonly Fingerprint[]; dirs: readonly Fingerprint[] },
): void {
  const read = fingerprints(scan.read, (file) => file);
  if (!read) return;
  // A file changed in the last seconds could change again within the same (coarse) mtime and size;
  // such a scan is not cached, and the next command scans again (git's "racily clean" rule).
  const settled = Date.now() - SETTLED_MS;
  if ([...before.files, ...before.dirs, ...read].some(([, , mtime]) => mtime >= settled)) return;
  const prefix = prefixOf(root);
  const relative = (file: string) => (file.startsWith(prefix) ? file.slice(prefix.length) : '');
  const position = new Map(scan.listed.map((file, index) => [file, index]));
  const found: CachedEntry[] = [];
  for (const entry of scan.found) {
    const packed = packEntry(entry, position);
    // Every entry of a scan comes from a listed file; anything else is not cached.
    if (!packed) return;
    found.push(packed);
  }
  const cache: CacheFile = {
    format: FORMAT,
    assay: version(),
    root: path.resolve(root.dir),
    recursive: root.recursive !== false,
    listed: {
      paths: before.files.map(([file]) => relative(file)),
      sizes: before.files.map(([, size]) => size),
      mtimes: before.files.map(([, , mtime]) => mtime),
    },
    dirs: {
      paths: before.dirs.map(([dir]) => relative(dir)),
      mtimes: before.dirs.map(([, , mtime]) => mtime),
    },
    read,
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
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(temporary, JSON.stringify(cache));
    renameSync(temporary, target);
  } catch {
    rmSync(temporary, { force: true });
  }
}
