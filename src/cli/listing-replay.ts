/**
 * The finished output of a listing command (`assay ls tasks|groups|tags`, `assay run --tasks list`…),
 * kept and replayed while everything it was made from is unchanged. A warm listing of lm-eval's tree
 * otherwise rebuilds the index from its cached scans and formats 13,000 rows (3.7 MB) on every command;
 * replayed, it is the scans' stamps checked, one file read and written out, before commander or any
 * option table is loaded.
 *
 * A record is keyed by everything the output depends on besides the files: the command line as parsed,
 * the current folder (paths are shown relative to it), the collation locale (`ls` sorts by it), assay's
 * version and built-in task folder. It holds what the index was built from (`IndexSources`: each root's
 * cached scan by id, the overrides' compared files) and is replayed only while `sourcesUnchanged` holds:
 * the same rule as the scans' (every folder's and file's stamp: size, mtime, ctime and inode), so a file
 * edited (even with its mtime put back), added or removed, or a symlinked folder pointed elsewhere, is
 * noticed. The modules that format listings are stamped too, so a rebuilt assay of
 * the same version does not replay an older format. Only a listing that succeeded, from an index whose
 * sources are all recorded, is kept, and not one whose `--include_path` asked Python where lm-eval is.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinTasksDir } from '../tasks/builtin-dir.js';
import { sourcesUnchanged, version } from '../tasks/index-cache.js';
import type { IndexSources } from '../tasks/index-types.js';
import { indexCacheDirectory } from '../util/cache-directory.js';
import { type FileStamp, fileStamp, sameStamp } from '../util/file-stamp.js';
import { packagePath } from '../util/package-root.js';
import { mayList } from './command-line.js';

/** Bumped whenever what a record holds changes. */
const FORMAT = 2;

/** What a listing command writes, in order, to stdout (1) or stderr (2), and its exit code. */
export interface ListingOutput {
  writes: Array<[stream: 1 | 2, text: string]>;
  exitCode: number;
}

/** What a record may be kept under: the index's sources (absent: not kept) and the folder of the scans. */
export interface ListingSources {
  sources: IndexSources | undefined;
  cacheDir: string;
}

interface RecordHeader {
  format: number;
  key: string;
  modules: Array<[file: string, ...stamp: FileStamp]>;
  sources: IndexSources;
  /** Each write's stream and length in bytes; the bytes follow the header line. */
  writes: Array<[stream: 1 | 2, bytes: number]>;
}

/** The modules whose code decides a listing's text, beside this one. */
const FORMATTING_MODULES = [
  './listing-replay',
  './ls',
  './run-listing',
  './task-listing',
  './display-path',
  './errors',
  '../results/table',
  '../tasks/index',
  '../tasks/overrides',
];

function moduleFiles(): string[] {
  const self = fileURLToPath(import.meta.url);
  // In the bundled CLI (dist/bundle/, scripts/bundle-cli.mjs) those modules are in its chunks, which every
  // build that changes any of them writes anew with the entry: the entry's and this chunk's stamps stand for them.
  const bundle = packagePath('dist', 'bundle');
  if (path.dirname(self) === bundle) return [path.join(bundle, 'main.js'), self];
  const extension = path.extname(self);
  return FORMATTING_MODULES.map((name) => path.resolve(path.dirname(self), name + extension));
}

function listingKey(args: readonly string[]): string {
  return JSON.stringify([
    FORMAT,
    version(),
    builtinTasksDir(),
    process.cwd(),
    new Intl.Collator().resolvedOptions().locale,
    args,
  ]);
}

function recordFile(cacheDir: string, key: string): string {
  return path.join(cacheDir, `listing-${createHash('sha256').update(key).digest('hex').slice(0, 24)}.bin`);
}

/**
 * Writes the recorded output of this command line and returns true, when a record of it exists and all
 * it was made from is unchanged; false otherwise (the command then runs as usual).
 */
export function replayListing(args: readonly string[]): boolean {
  if (!mayList(args)) return false;
  let bytes: Buffer;
  let header: RecordHeader;
  let cacheDir: string;
  try {
    cacheDir = indexCacheDirectory();
    const key = listingKey(args);
    bytes = readFileSync(recordFile(cacheDir, key));
    const newline = bytes.indexOf(10);
    if (newline < 0) return false;
    header = JSON.parse(bytes.toString('utf8', 0, newline)) as RecordHeader;
    if (header.format !== FORMAT || header.key !== key) return false;
    const modules = moduleFiles();
    if (header.modules.length !== modules.length) return false;
    for (const [index, [file, ...stamp]] of header.modules.entries())
      if (file !== modules[index] || !sameStamp(file, stamp)) return false;
    if (!sourcesUnchanged(cacheDir, header.sources)) return false;
    let at = newline + 1;
    for (const [, length] of header.writes) at += length;
    if (at !== bytes.length) return false;
    at = newline + 1;
    for (const [stream, length] of header.writes) {
      (stream === 1 ? process.stdout : process.stderr).write(bytes.subarray(at, at + length));
      at += length;
    }
  } catch {
    return false;
  }
  process.exitCode = 0;
  return true;
}

/**
 * Writes a listing command's output and returns its exit code; keeps it for `replayListing` under the
 * command line `args` (absent: a call from code, not kept) when it succeeded and its index's sources are
 * all recorded. Best effort: a record that cannot be written only
 * means the next command lists again.
 */
export function emitListing(
  args: readonly string[] | undefined,
  output: ListingOutput,
  from: ListingSources,
): number {
  const { sources, cacheDir } = from;
  const keep = args !== undefined && output.exitCode === 0 && sources !== undefined && mayList(args);
  // Encoded once, for the streams and the record alike (lm-eval's tree lists 3.7 MB).
  const chunks = output.writes.map(([, text]) => Buffer.from(text));
  for (const [index, [stream]] of output.writes.entries())
    (stream === 1 ? process.stdout : process.stderr).write(chunks[index]);
  if (!keep) return output.exitCode;
  const modules: RecordHeader['modules'] = [];
  for (const file of moduleFiles()) {
    const stamp = fileStamp(file);
    if (!stamp) return output.exitCode;
    modules.push([file, ...stamp]);
  }
  const key = listingKey(args);
  const header: RecordHeader = {
    format: FORMAT,
    key,
    modules,
    sources,
    writes: output.writes.map(([stream], index) => [stream, chunks[index].length]),
  };
  const target = recordFile(cacheDir, key);
  const staged = `${target}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    const descriptor = openSync(staged, 'w');
    try {
      for (const chunk of [Buffer.from(`${JSON.stringify(header)}\n`), ...chunks]) {
        // A write to a file may be short; the rest is written after it.
        for (let at = 0; at < chunk.length; ) at += writeSync(descriptor, chunk, at);
      }
    } finally {
      closeSync(descriptor);
    }
    renameSync(staged, target);
    pruneRecords(cacheDir);
  } catch {
    rmSync(staged, { force: true });
  }
  return output.exitCode;
}

/** Records kept at most (lm-eval's tree lists 3.8 MB; one record per command line and current folder). */
export const KEPT_RECORDS = 16;

/** Removes the records written longest ago beyond KEPT_RECORDS. */
function pruneRecords(cacheDir: string): void {
  const records = readdirSync(cacheDir)
    .filter((name) => name.startsWith('listing-') && name.endsWith('.bin'))
    .map((name) => {
      const file = path.join(cacheDir, name);
      return { file, mtimeMs: statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { file } of records.slice(KEPT_RECORDS)) rmSync(file, { force: true });
}
