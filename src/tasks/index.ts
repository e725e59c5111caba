/**
 * The task index: every task, group and tag name that `--tasks` can refer to, found by scanning the
 * built-in `tasks/` folder and each `--include_path` folder. Indexing reads and parses YAML (includes
 * merged, memoized) but imports no code and reads no data, so `assay ls` stays fast.
 */
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssayError } from '../errors.js';
import { loadYaml, type YamlMapping } from './yaml-loader.js';

export interface TaskLogger {
  warn(message: string): void;
}

export type EntryKind = 'task' | 'group' | 'tag';
export type EntryFormat = 'yaml' | 'jsonl' | 'typescript';

export interface IndexEntry {
  name: string;
  kind: EntryKind;
  /** Absent for tags, which live in the tasks that declare them. */
  format?: EntryFormat;
  /** Absolute path of the defining file; absent for tags. */
  path?: string;
  /** The merged YAML (includes applied, `!function` unresolved), for YAML entries. */
  config?: YamlMapping;
  /** Tag members, sorted by name. */
  tasks?: string[];
}

export interface TaskIndex {
  entries: Map<string, IndexEntry>;
  /** Files that could not be indexed, with the reason (they are also reported to the logger). */
  skipped: Array<{ file: string; error: AssayError }>;
}

export interface IndexRoot {
  dir: string;
  /** False scans the folder itself only (used for the folder of a task file named on the command line). */
  recursive?: boolean;
}

export interface BuildIndexOptions {
  includePath?: readonly string[];
  /** Extra roots scanned after includePath. */
  extraRoots?: readonly IndexRoot[];
  /** The built-in task folder; `false` leaves it out (tests). Defaults to the package's `tasks/`. */
  builtinDir?: string | false;
  logger?: TaskLogger;
}

const IGNORED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.ipynb_checkpoints']);
/** TypeScript task modules are named `<task>.task.ts` so the index can tell them from helpers like utils.ts. */
const MODULE_TASK = /\.task\.(ts|mts|js|mjs)$/;

/** `tasks/` at the package root: two levels up from both src/tasks/ and dist/tasks/. */
export function builtinTasksDir(): string {
  return fileURLToPath(new URL('../../tasks/', import.meta.url));
}

async function listFiles(root: IndexRoot): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const subdirs: Promise<void>[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (root.recursive !== false && !IGNORED_DIRS.has(entry.name)) subdirs.push(walk(full));
      } else if (/\.(ya?ml|jsonl)$/.test(entry.name) || MODULE_TASK.test(entry.name)) {
        files.push(full);
      }
    }
    await Promise.all(subdirs);
  };
  await walk(path.resolve(root.dir));
  // Deterministic order (as lm-eval sorts by posix path): decides which duplicate wins.
  return files.sort();
}

/**
 * A JSONL file is a task when its first record has a `prompt` and `targets`; this keeps data files
 * that sit next to YAML tasks out of the index. Only the first few KB are read.
 */
async function isJsonlTask(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    for (const line of buffer.subarray(0, bytesRead).toString('utf8').split('\n')) {
      const text = line.trim();
      if (text === '' || text.startsWith('#')) continue;
      return /"prompt"\s*:/.test(text) && /"targets"\s*:/.test(text);
    }
    return false;
  } finally {
    await handle.close();
  }
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

async function entriesOfFile(file: string): Promise<IndexEntry | undefined> {
  if (file.endsWith('.jsonl')) {
    if (!(await isJsonlTask(file))) return undefined;
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
  const loaded = await loadYaml(file);
  const kind = kindOf(loaded.config);
  // Files with neither key are templates meant to be included; lm-eval skips them too.
  if (!kind) return undefined;
  const name = String(kind === 'group' ? loaded.config.group : loaded.config.task);
  return { name, kind, format: 'yaml', path: file, config: loaded.config };
}

function tagsOf(entry: IndexEntry): string[] {
  const tag = entry.config?.tag;
  if (typeof tag === 'string') return [tag];
  if (Array.isArray(tag)) return tag.filter((item): item is string => typeof item === 'string');
  return [];
}

export async function buildTaskIndex(options: BuildIndexOptions = {}): Promise<TaskIndex> {
  const roots: IndexRoot[] = [];
  const builtin = options.builtinDir === undefined ? builtinTasksDir() : options.builtinDir;
  if (builtin !== false) roots.push({ dir: builtin });
  for (const dir of options.includePath ?? []) roots.push({ dir });
  roots.push(...(options.extraRoots ?? []));

  const skipped: TaskIndex['skipped'] = [];
  // Every root is listed and parsed concurrently; the merge below is sequential, so order is stable.
  const perRoot = await Promise.all(
    roots.map(async (root) => {
      const files = await listFiles(root);
      return Promise.all(
        files.map((file) =>
          entriesOfFile(file).catch((error: unknown) => {
            if (!(error instanceof AssayError)) throw error;
            skipped.push({ file, error });
            return undefined;
          }),
        ),
      );
    }),
  );
  skipped.sort((a, b) => a.file.localeCompare(b.file));
  for (const { file, error } of skipped) options.logger?.warn(`skipping ${file}: ${error.format()}`);

  const entries = new Map<string, IndexEntry>();
  for (const found of perRoot) {
    // Within one root the first file (in path order) wins; a later root overrides earlier ones.
    const rootEntries = new Map<string, IndexEntry>();
    for (const entry of found) {
      if (!entry) continue;
      const existing = rootEntries.get(entry.name);
      if (existing) {
        options.logger?.warn(
          `duplicate ${entry.kind} name "${entry.name}": using ${existing.path}, ignoring ${entry.path}`,
        );
        continue;
      }
      rootEntries.set(entry.name, entry);
    }
    for (const [name, entry] of rootEntries) {
      const existing = entries.get(name);
      if (existing)
        options.logger?.warn(`${entry.kind} "${name}" from ${entry.path} overrides ${existing.path}`);
      entries.set(name, entry);
    }
  }

  const tags = new Map<string, string[]>();
  for (const entry of entries.values()) {
    if (entry.kind !== 'task') continue;
    for (const tag of tagsOf(entry)) {
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
  return { entries, skipped };
}
