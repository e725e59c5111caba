/**
 * Scanning one root: every candidate file read once, YAML parsed with its includes merged, and the few keys
 * the index keeps. Its own module, loaded only when a root has no valid cached scan: a warm command lists
 * without loading the YAML parser.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { type FileStamp, fileStamp } from '../util/file-stamp.js';
import { readStamped, type StampedText } from '../util/read-stamped.js';
import { type Fingerprint, fingerprintOf } from './index-cache.js';
import type { IndexEntry, IndexRoot, RootScan } from './index-types.js';
import { isYamlFile, listRoot, MODULE_TASK } from './root-walk.js';
import {
  loadYamlSync,
  locateLoadError,
  memoizedParse,
  ownMapping,
  unreadableFile,
  type YamlMapping,
} from './yaml-loader.js';

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
export const INDEX_KEYS: readonly string[] = ['task', 'group', 'tag', 'output_type'];

/** The index entry a file defines, and every file its load read (`own`: its text and stamp, already read). */
function entryOfFile(file: string, read: Set<string>, own?: StampedText): IndexEntry | undefined {
  if (file.endsWith('.jsonl')) {
    let isTask: boolean;
    try {
      isTask = isJsonlTask(file);
    } catch (error) {
      // Gone since the walk, a dangling link, a folder: named and skipped, as a YAML file would be.
      throw unreadableFile(file, error);
    }
    if (!isTask) return undefined;
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
  const loaded = loadYamlSync(file, { keys: INDEX_KEYS, read: own });
  // The file's includes; the file itself is listed, and a scan's `read` leaves listed files out.
  const files = loaded.files;
  for (let at = files[0] === file ? 1 : 0; at < files.length; at++) read.add(files[at]);
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
  if (!isYamlFile(file)) return {};
  const own = ownMapping(file);
  const kind = own && kindOf(own);
  if (!own || !kind) return {};
  return { name: String(kind === 'task' ? own.task : own.group) };
}

/**
 * What a YAML load that failed may have read, into `read`: the file and its includes, followed as far as
 * they parse, the one not found or not parsed included. Creating or fixing it changes what the file
 * defines, so the scan's cache must notice it (index-cache.ts stamps a missing one absent).
 */
function attemptedFiles(file: string, read: Set<string>): void {
  const pending = [path.resolve(file)];
  while (pending.length > 0) {
    const next = pending.pop() as string;
    if (read.has(next)) continue;
    read.add(next);
    const include = ownMapping(next)?.include;
    for (const entry of Array.isArray(include) ? include : [include])
      if (typeof entry === 'string') pending.push(path.resolve(path.dirname(next), entry));
  }
}

/** A stamped scan: each listed file's stamp (undefined when one is gone) and the included files' stamps. */
export interface StampedScan {
  scan: RootScan;
  stamps: Fingerprint[] | undefined;
  /** The stamps of the other files read (`scan.read`) that were taken as they were read. */
  readStamps: Map<string, FileStamp>;
}

/**
 * Scans one root: every candidate file, parsed once. With `stamped`, each file's stamp is that of the text
 * its parse came from, taken through the descriptor the text was read from, before the read: a file that
 * changes while the scan runs is seen as changed by the next command. A listed file already parsed as an
 * earlier file's include keeps the stamp of that read (its parse is the one used).
 */
export function scanRoot(root: IndexRoot, listed?: readonly string[]): RootScan;
export function scanRoot(root: IndexRoot, listed: readonly string[], options: { stamped: true }): StampedScan;
export function scanRoot(
  root: IndexRoot,
  listed: readonly string[] = listRoot(root),
  options?: { stamped: true },
): RootScan | StampedScan {
  const scan = new ScanState(listed);
  if (!options?.stamped) {
    for (const file of listed) scan.add(file);
    return scan.result();
  }
  const stamps: Fingerprint[] = [];
  let complete = true;
  // Indexed, as below: thousands of files, in V8's interpreter in a cold command (no iterator protocol).
  for (let index = 0; index < listed.length; index++) {
    const file = listed[index];
    let read: StampedText | undefined;
    let stamp: FileStamp | undefined;
    const yaml = isYamlFile(file);
    const earlier = yaml ? memoizedParse(file) : undefined;
    if (earlier) stamp = earlier.stamp;
    else {
      try {
        if (yaml) read = readStamped(file);
      } catch {
        // Left to the loader, whose error names the file and the reason.
      }
      stamp = read?.stamp ?? fileStamp(file);
    }
    if (stamp) stamps.push(fingerprintOf(file, stamp));
    else complete = false;
    scan.add(file, read);
  }
  const result = scan.result();
  const readStamps = new Map<string, FileStamp>();
  for (const file of result.read) {
    const stamp = memoizedParse(file)?.stamp;
    if (stamp) readStamps.set(file, stamp);
  }
  return { scan: result, stamps: complete ? stamps : undefined, readStamps };
}

/** What a scan has found so far. */
class ScanState {
  private readonly found: IndexEntry[] = [];
  private readonly skipped: RootScan['skipped'] = [];
  private readonly read = new Set<string>();

  constructor(private readonly listed: readonly string[]) {}

  add(file: string, own?: StampedText): void {
    try {
      const entry = entryOfFile(file, this.read, own);
      if (entry) this.found.push(entry);
    } catch (thrown) {
      const error = locateLoadError(thrown);
      if (!(error instanceof AssayError)) throw error;
      if (isYamlFile(file)) attemptedFiles(file, this.read);
      this.skipped.push({ file, error, ...definedName(file) });
    }
  }

  result(): RootScan {
    const listedSet = new Set(this.listed);
    return {
      found: this.found,
      skipped: this.skipped,
      listed: [...this.listed],
      read: [...this.read].filter((file) => !listedSet.has(file)).sort(),
    };
  }
}
