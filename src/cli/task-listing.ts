import { renderMarkdown } from '../results/table.js';
import type { IndexEntry, TaskIndex } from '../tasks/index.js';
import { displayPath } from './display-path.js';

/** `--tasks list`, `list_groups`, `list_tags`, `list_subtasks`: what lm-eval ≤ 0.4.9 accepted in `--tasks`. */
export const LISTINGS = {
  list: { groups: true, tags: true, subtasks: true },
  list_groups: { groups: true, tags: false, subtasks: false },
  list_tags: { groups: false, tags: true, subtasks: false },
  list_subtasks: { groups: false, tags: false, subtasks: true },
} as const;

export type ListingName = keyof typeof LISTINGS;

export function isListing(tasks: readonly string[] | undefined): ListingName | undefined {
  if (tasks?.length !== 1) return undefined;
  return Object.hasOwn(LISTINGS, tasks[0]) ? (tasks[0] as ListingName) : undefined;
}

/**
 * lm-eval's sanitize_path for its own tasks (`lm_eval/tasks/…`); anything else relative to the current
 * folder, as `assay ls` shows it (lm-eval prints it as written, here an absolute path).
 */
function location(file: string | undefined): string {
  if (file === undefined) return '---';
  const marker = 'lm_eval/tasks/';
  const at = file.indexOf(marker);
  return at >= 0 ? marker + file.slice(file.lastIndexOf(marker) + marker.length) : displayPath(file);
}

/** Python's sorted() on str: by code point. */
function byName(a: IndexEntry, b: IndexEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * TaskManager.list_all_tasks: a group table, a tag table and a subtask table (name, config location,
 * output type as the YAML sets it, else empty), each followed by a blank line.
 */
export function taskListing(index: TaskIndex, name: ListingName): string {
  const wanted = LISTINGS[name];
  const entries = [...index.entries.values()].sort(byName);
  const of = (kind: IndexEntry['kind']) => entries.filter((entry) => entry.kind === kind);
  let out = '\n';
  if (wanted.groups) {
    out += `${renderMarkdown(
      ['Group', 'Config Location'],
      of('group').map((entry) => [entry.name, location(entry.path)]),
    )}\n\n`;
  }
  if (wanted.tags)
    out += `${renderMarkdown(
      ['Tag'],
      of('tag').map((entry) => [entry.name]),
    )}\n\n`;
  if (wanted.subtasks) {
    out += `${renderMarkdown(
      ['Task', 'Config Location', 'Output Type'],
      of('task').map((entry) => [
        entry.name,
        location(entry.path),
        entry.outputType ?? (entry.format === 'jsonl' ? 'generate_until' : ''),
      ]),
    )}\n\n`;
  }
  return out;
}
