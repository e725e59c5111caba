/**
 * The task index's records: what an entry, a root and one root's scan are. Types only, shared by the
 * index (index.ts) and its scan cache (index-cache.ts), which would otherwise import each other.
 */
import type { AssayError } from '../errors.js';
import type { FileStamp } from '../util/file-stamp.js';

export type EntryKind = 'task' | 'group' | 'tag';
export type EntryFormat = 'yaml' | 'jsonl' | 'typescript';

export interface IndexEntry {
  name: string;
  kind: EntryKind;
  /** Absent for tags, which live in the tasks that declare them. */
  format?: EntryFormat;
  /** Absolute path of the defining file; absent for tags. */
  path?: string;
  /** YAML tasks: `output_type` as merged from the includes, when it is a string. */
  outputType?: string;
  /** YAML tasks: the tags they declare. */
  tags?: string[];
  /** YAML groups: their members as written (a dict member by its `task` or `group` name). */
  members?: string[];
  /** Tag members, sorted by name. */
  tasks?: string[];
}

export interface IndexRoot {
  dir: string;
  /** False scans the folder itself only. */
  recursive?: boolean;
}

/**
 * A task file the scan could not read, with the name it defines when the file itself parses (its
 * `include:` failed, say), so that asking for that name says why instead of "unknown task".
 */
export interface SkippedFile {
  file: string;
  error: AssayError;
  name?: string;
}

/** What scanning one root found: entries in path order (duplicates included), unreadable files, inputs. */
export interface RootScan {
  found: IndexEntry[];
  skipped: SkippedFile[];
  /** Files listed in the root (task candidates), sorted. */
  listed: string[];
  /** Other files the scan read (includes outside the root or without a task extension), sorted. */
  read: string[];
  /** The id of the cached scan this is (read from or written to the cache); absent: not cached. */
  cacheId?: string;
}

/**
 * What an index was built from, when all of it can be checked again cheaply: each root's cached scan (by
 * its id) and the other files read (the overrides' comparisons), with their stamps. A product
 * of the index (a listing) can be kept under the scans' rule: reused while `sourcesUnchanged` holds.
 */
export interface IndexSources {
  roots: Array<{ dir: string; recursive: boolean; scan: string }>;
  files: Array<[file: string, ...stamp: FileStamp]>;
}

/**
 * A name defined in two roots: the later root's definition replaced the earlier one (a built-in task
 * replaced by an `--include_path` folder's, say).
 */
export interface TaskOverride {
  name: string;
  kind: 'task' | 'group';
  /** The definition used, and its root folder (as given). */
  path: string;
  root: string;
  /** The definition it replaced, and its root folder. */
  replaced: string;
  replacedRoot: string;
  /** The replaced definition is one of assay's built-in tasks. */
  builtin: boolean;
  /** Both configs are the same once includes are merged (a `!function` compares by its name). */
  sameConfig: boolean;
  /** Top-level keys whose values differ (empty when the files could not be compared key by key). */
  differingKeys: string[];
}
