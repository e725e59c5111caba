/**
 * `expectSha256` (`--expect_sha256`): the content sha256 each named task must have (its config, the
 * Python modules its utils.py imports and every data file it read, see taskContentSha256). Names are checked when the run is prepared; contents once
 * the docs are loaded and before any model request, so a task that changed never costs a request.
 */
import path from 'node:path';
import { AssayError, closestNames } from '../errors.js';
import { pythonModulesOf } from '../python/module-digests.js';
import { taskContentSha256 } from '../tasks/source-hash.js';
import type { LoadedTask } from '../tasks/task.js';

/** Task name → expected content sha256 (64 hex digits). */
export type TaskPins = Record<string, string>;

const HEX64 = /^[0-9a-f]{64}$/;

/** Lowercased pins, every name a task of this run and every value a sha256. */
export function checkPins(pins: TaskPins | undefined, tasks: LoadedTask[]): TaskPins | undefined {
  if (pins === undefined) return undefined;
  const names = [...new Set(tasks.map((task) => task.name))];
  const out: TaskPins = {};
  for (const [task, value] of Object.entries(pins)) {
    const hex = typeof value === 'string' ? value.trim().toLowerCase() : '';
    if (!HEX64.test(hex)) {
      throw new AssayError(
        'bad_option',
        `\`expectSha256\`: task ${task} must map to a sha256 (64 hex digits), got ${JSON.stringify(value)}`,
        { location: { field: 'expectSha256', task } },
      );
    }
    if (!names.includes(task)) {
      const close = closestNames(task, names, 1);
      throw new AssayError(
        'bad_option',
        `\`expectSha256\` pins task "${task}", which is not in this run${close.length ? `; did you mean "${close[0]}"?` : ''} (tasks: ${names.join(', ')})`,
        { location: { field: 'expectSha256' } },
      );
    }
    out[task] = hex;
  }
  return out;
}

/** Refuses the run when a pinned task's content differs: names the task, both hashes and what it read. */
export function verifyPins(pins: TaskPins | undefined, tasks: LoadedTask[]): void {
  if (!pins) return;
  for (const task of tasks) {
    const expected = pins[task.name];
    if (expected === undefined) continue;
    const actual = taskContentSha256(task);
    if (actual === expected) continue;
    const files = task.dataFiles?.() ?? [];
    const modules = pythonModulesOf(task.config, { imported: true });
    const imported = modules.length
      ? `, ${modules.length} Python module${modules.length > 1 ? 's' : ''} its code imports: ${modules
          .map(
            (module) =>
              `${path.relative(path.dirname(task.source.path), module.path)} (sha256 ${module.sha256})`,
          )
          .join(', ')}`
      : '';
    const read = files.length
      ? `its config (sha256 ${task.source.sha256})${imported} and ${files.length} data file${files.length > 1 ? 's' : ''}: ${files
          .map((file) => `${file.path} (${file.split}, ${file.size} bytes, sha256 ${file.sha256})`)
          .join(', ')}`
      : modules.length
        ? `its config (sha256 ${task.source.sha256})${imported}, and no data files`
        : `its config alone (no data files): ${task.source.path}`;
    throw new AssayError(
      'sha256_mismatch',
      `task ${task.name} is not the pinned content: sha256 ${actual}, expected ${expected} (\`expectSha256\`); it covers ${read}`,
      { location: { task: task.name, file: task.source.path } },
    );
  }
}
