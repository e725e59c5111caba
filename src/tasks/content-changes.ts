/**
 * Whether a task is still what a finished run's manifest recorded of it, checked without running it: its
 * config (the task file, its includes, its `!function` modules: `config_sha256`), every Python module its
 * code imported (`python_modules`) and every data file it read (`data_files`, by split). These are what the
 * manifest's content `sha256` and `prompt_template_sha256` are made of (tasks/source-hash.ts,
 * report/manifest.ts), so when none changed neither did they. `assay suite run` skips a finished cell only
 * when this finds nothing for each of its tasks.
 */
import path from 'node:path';
import { splitDataFiles } from '../data/local-dataset.js';
import { AssayError } from '../errors.js';
import { fileSha256 } from '../util/file-digest.js';
import type { LoadedTask } from './task.js';

/** A task's entry in a run's manifest, the fields this check reads (older runs may lack some). */
export interface RecordedTaskContent {
  config_sha256?: string | null;
  data_files?: readonly { split: string; path: string; sha256: string }[] | null;
  python_modules?: readonly { path: string; sha256: string }[] | null;
}

const short = (sha256: string) => sha256.slice(0, 12);

async function sha256OrNull(file: string): Promise<string | null> {
  try {
    return await fileSha256(file);
  } catch {
    return null;
  }
}

type ListedFile = { path: string; sha256: string };

/** The data files a task's split reads now, with their digests (its rows are not read). */
export function taskSplitFiles(task: LoadedTask, split: string): Promise<readonly ListedFile[]> {
  return splitDataFiles(task.config, task.source.path, split);
}

/**
 * What changed in a task since the run that recorded it, one sentence each; empty when nothing did.
 * `splitFiles` lists a split's data files now (taskSplitFiles unless given, so a caller checking many
 * cells can share one listing per task and split).
 */
export async function taskContentChanges(
  task: LoadedTask,
  recorded: RecordedTaskContent | undefined,
  splitFiles: (task: LoadedTask, split: string) => Promise<readonly ListedFile[]> = taskSplitFiles,
): Promise<string[]> {
  if (!recorded) return [`task ${task.name} is not in the recorded run`];
  if (!recorded.config_sha256) return [`task ${task.name}: the recorded run has no config hash`];
  if (recorded.config_sha256 !== task.source.sha256)
    // A new config may read other files: nothing more to compare.
    return [
      `task ${task.name}: its config changed (sha256 ${short(recorded.config_sha256)} → ${short(task.source.sha256)}, ${task.source.path})`,
    ];
  const changes: string[] = [];
  const folder = path.dirname(task.source.path);
  for (const module of recorded.python_modules ?? []) {
    const now = await sha256OrNull(path.resolve(folder, module.path));
    if (now !== module.sha256)
      changes.push(
        `task ${task.name}: Python module ${module.path} ${now === null ? 'is gone' : `changed (sha256 ${short(module.sha256)} → ${short(now)})`}`,
      );
  }
  const splits = [...new Set((recorded.data_files ?? []).map((file) => file.split))];
  for (const split of splits) {
    const before = (recorded.data_files ?? []).filter((file) => file.split === split);
    let now: readonly ListedFile[];
    try {
      now = await splitFiles(task, split);
    } catch (error) {
      changes.push(
        `task ${task.name}: split ${split} cannot be listed now (${error instanceof AssayError ? error.message : (error as Error).message})`,
      );
      continue;
    }
    const key = (file: ListedFile) => `${file.path}\0${file.sha256}`;
    const listed = (files: readonly ListedFile[]) => files.map(key).sort().join('\n');
    if (listed(before) === listed(now)) continue;
    const gone = before.filter((file) => !now.some((other) => key(other) === key(file)));
    const added = now.filter((file) => !before.some((other) => key(other) === key(file)));
    const changed = gone
      .filter((file) => added.some((other) => other.path === file.path))
      .map((file) => file.path);
    const described = [
      ...changed.map((file) => `${file} changed`),
      ...gone.filter((file) => !changed.includes(file.path)).map((file) => `${file.path} is gone`),
      ...added.filter((file) => !changed.includes(file.path)).map((file) => `${file.path} is new`),
    ];
    changes.push(`task ${task.name}: data of split ${split}: ${described.join(', ')}`);
  }
  return changes;
}
