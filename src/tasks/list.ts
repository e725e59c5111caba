/**
 * Rows for `assay ls tasks|groups|tags`, straight from the index: nothing is imported and no data is
 * read, unlike lm-eval's subtask table, which re-parses every YAML.
 */
import { buildTaskIndex, type TaskIndex, type TaskLogger } from './index.js';

export type ListKind = 'tasks' | 'groups' | 'tags';

export interface TaskRow {
  name: string;
  path: string;
  format: 'yaml' | 'jsonl' | 'typescript';
  /** From the YAML (default generate_until); JSONL tasks generate. Unknown for TypeScript tasks until imported. */
  outputType?: string;
}

export interface GroupRow {
  name: string;
  path: string;
  /** Children as written: names, or `name` of dict entries / inline groups. */
  subtasks: string[];
}

export interface TagRow {
  name: string;
  tasks: string[];
}

export interface ListOptions {
  includePath?: string[];
  builtinDir?: string | false;
  logger?: TaskLogger;
  index?: TaskIndex;
  /** Folder of cached index scans (BuildIndexOptions.cacheDir). */
  cacheDir?: string;
}

export async function listTasks(kind: 'tasks', options?: ListOptions): Promise<TaskRow[]>;
export async function listTasks(kind: 'groups', options?: ListOptions): Promise<GroupRow[]>;
export async function listTasks(kind: 'tags', options?: ListOptions): Promise<TagRow[]>;
export async function listTasks(
  kind: ListKind,
  options: ListOptions = {},
): Promise<TaskRow[] | GroupRow[] | TagRow[]> {
  const index = options.index ?? (await buildTaskIndex(options));
  const entries = [...index.entries.values()].sort((a, b) => a.name.localeCompare(b.name));
  if (kind === 'tasks') {
    return entries
      .filter((entry) => entry.kind === 'task')
      .map((entry) => {
        const row: TaskRow = { name: entry.name, path: entry.path as string, format: entry.format ?? 'yaml' };
        if (entry.format === 'yaml') row.outputType = entry.outputType ?? 'generate_until';
        else if (entry.format === 'jsonl') row.outputType = 'generate_until';
        return row;
      });
  }
  if (kind === 'groups') {
    return entries
      .filter((entry) => entry.kind === 'group')
      .map((entry) => ({ name: entry.name, path: entry.path as string, subtasks: entry.members ?? [] }));
  }
  return entries
    .filter((entry) => entry.kind === 'tag')
    .map((entry) => ({ name: entry.name, tasks: entry.tasks ?? [] }));
}
