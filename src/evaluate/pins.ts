/**
 * `expectSha256` (`--expect_sha256`): the content sha256 each named task must have (its config and every
 * data file it read, see taskContentSha256). Names are checked when the run is prepared; contents once
 * the docs are loaded and before any model request, so a task that changed never costs a request.
 */
import { AssayError, closestNames } from '../errors.js';
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
        'bad_argument',
        `--expect_sha256: task ${task} must map to a sha256 (64 hex digits), got ${JSON.stringify(value)}`,
      );
    }
    if (!names.includes(task)) {
      const close = closestNames(task, names, 1);
      throw new AssayError(
        'bad_argument',
        `--expect_sha256 pins task "${task}", which is not in this run${close.length ? `; did you mean "${close[0]}"?` : ''} (tasks: ${names.join(', ')})`,
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
    const read = files.length
      ? `its config (sha256 ${task.source.sha256}) and ${files.length} data file${files.length > 1 ? 's' : ''}: ${files
          .map((file) => `${file.path} (${file.split}, ${file.size} bytes, sha256 ${file.sha256})`)
          .join(', ')}`
      : `its config alone (no data files): ${task.source.path}`;
    throw new AssayError(
      'sha256_mismatch',
      `task ${task.name} is not the pinned content: sha256 ${actual}, expected ${expected} (--expect_sha256); it covers ${read}`,
      { location: { task: task.name, file: task.source.path } },
    );
  }
}
