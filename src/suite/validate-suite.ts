/**
 * `assay suite validate`: everything about a suite that can be checked without running it. Each model is
 * a known backend and its model args pass that backend's own checks (no model loaded, nothing sent);
 * each task set resolves to tasks; each cell's options pass the run's schema; each scenario group names
 * task sets or leaf tasks of the suite. Errors carry the suite file's line and field.
 */
import { AssayError, closestNames, type ErrorLocation } from '../errors.js';
import { resolveRunOptions } from '../evaluate/run-options.js';
import type { Logger } from '../events.js';
import { checkModelArgs } from '../models/registry.js';
import { withRunSettings } from '../models/run-settings.js';
import { resolveTasks } from '../tasks/manager.js';
import { type TaskNode, uniqueLeaves } from '../tasks/task.js';
import { runOptionsOf, type SuiteCell, suiteCells } from './cells.js';
import { type FieldPath, type LoadedSuite, readSuiteFile } from './read-suite.js';
import { taskSetName } from './suite-file.js';

export interface ValidatedSuite {
  loaded: LoadedSuite;
  cells: SuiteCell[];
  /** Task set → its leaf tasks, in run order. */
  taskSets: Map<string, string[]>;
  /** Task set → its tasks as resolved (for the rerun's check of their content; nothing loaded yet). */
  taskNodes: Map<string, TaskNode[]>;
  /** Scenario group → its leaf tasks (a task set stands for its leaves). */
  groups: Map<string, string[]>;
}

export interface ValidateSuiteOptions {
  /** Folder of cached task-index scans (as a run's `indexCacheDir`). */
  indexCacheDir?: string;
  logger?: Logger;
}

/**
 * A run option's field as the suite file spells it: library errors name options in backticks
 * (`numFewshot`), which the CLI would show as `assay run`'s flags; in a suite they are keys of the file.
 */
export function inSuiteWords(message: string): string {
  return message.replace(/`([A-Za-z][\w.]*)`/g, (_whole, field: string) =>
    field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
  );
}

/** An error from a later stage, placed at the suite file's field it came from. */
function placed(error: unknown, location: ErrorLocation): unknown {
  if (!(error instanceof AssayError) || error.location.file) return error;
  return new AssayError(error.code, inSuiteWords(error.message), {
    location: { ...error.location, ...location },
    cause: error,
    exitCode: error.exitCode,
  });
}

async function at<T>(loaded: LoadedSuite, field: FieldPath, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw placed(error, loaded.locate(field));
  }
}

export async function validateSuite(
  file: string,
  options: ValidateSuiteOptions = {},
): Promise<ValidatedSuite> {
  const loaded = readSuiteFile(file);
  const { suite } = loaded;
  const cells = suiteCells(loaded);
  // Models: a known backend, args its own schema accepts (with the run-wide device and batch settings).
  for (const [index, model] of suite.models.entries()) {
    const cell = cells.find((entry) => entry.modelIndex === index);
    if (!cell) continue;
    const { settings } = cell;
    await at(loaded, ['models', index, model.model_args ? 'model_args' : 'model'], async () => {
      const args = withRunSettings(settings.model, settings.model_args, {
        device: settings.device,
        maxBatchSize: settings.max_batch_size,
        trustRemoteCode: settings.trust_remote_code,
      });
      await checkModelArgs(settings.model, args);
    });
  }
  // Task sets: each resolves; their leaves, for the groups and the summary.
  const taskSets = new Map<string, string[]>();
  const taskNodes = new Map<string, TaskNode[]>();
  for (const [index, taskSet] of suite.tasks.entries()) {
    const cell = cells.find((entry) => entry.taskSetIndex === index);
    if (!cell) continue;
    const runOptions = runOptionsOf(cell.settings, loaded.file);
    const field = ['tasks', index, taskSet.task !== undefined ? 'task' : 'tasks'];
    const nodes = await at(loaded, field, () =>
      resolveTasks(runOptions.tasks as string[], {
        includePath: runOptions.includePath,
        python: runOptions.python,
        indexCacheDir: options.indexCacheDir,
        logger: options.logger,
      }),
    );
    const leaves = uniqueLeaves(nodes).map((task) => task.name);
    for (const name of Object.keys(taskSet.samples ?? {}))
      if (!leaves.includes(name)) {
        const close = closestNames(name, leaves, 1);
        throw new AssayError(
          'bad_option',
          `suite file: samples name task "${name}", which is not in task set ${taskSetName(taskSet)}${close.length ? `; did you mean "${close[0]}"?` : ''} (its tasks: ${leaves.join(', ')})`,
          { location: loaded.locate(['tasks', index, 'samples', name]) },
        );
      }
    taskSets.set(taskSetName(taskSet), leaves);
    taskNodes.set(taskSetName(taskSet), nodes);
  }
  // Every cell's options pass the run's own schema (limit with samples, chat settings, …).
  for (const cell of cells)
    await at(loaded, ['tasks', cell.taskSetIndex], () =>
      resolveRunOptions(runOptionsOf(cell.settings, loaded.file)),
    );
  const groups = new Map<string, string[]>();
  const allLeaves = [...new Set([...taskSets.values()].flat())];
  for (const [group, members] of Object.entries(suite.groups ?? {})) {
    const leaves: string[] = [];
    for (const [index, member] of members.entries()) {
      const found = taskSets.get(member) ?? (allLeaves.includes(member) ? [member] : undefined);
      if (!found) {
        const names = [...taskSets.keys(), ...allLeaves];
        const close = closestNames(member, names, 1);
        throw new AssayError(
          'invalid_config',
          `suite file: group ${group} names "${member}", which is no task set or task of this suite${close.length ? `; did you mean "${close[0]}"?` : ''}`,
          { location: loaded.locate(['groups', group, index]) },
        );
      }
      for (const leaf of found) if (!leaves.includes(leaf)) leaves.push(leaf);
    }
    groups.set(group, leaves);
  }
  return { loaded, cells, taskSets, taskNodes, groups };
}
