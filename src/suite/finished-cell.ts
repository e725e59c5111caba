/**
 * Whether a suite cell is finished for this run of the suite: its record says `done`, for the same part
 * of the cell (the whole cell, or a shard's doc slice), with the same settings (their hash), its results file is still there, and every task it ran is still the content that
 * run recorded in its manifest (config, imported Python modules, data files: tasks/content-changes.ts).
 * A task file edited, a data file replaced or a helper module changed reruns the cell even though the
 * suite file did not change. When it is not finished, the reasons say why, for the progress lines.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { readResultsFile } from '../results/read-run.js';
import type { ReadResults } from '../results/schema.js';
import { readSuiteCellRecord, type SuiteCellRecord } from '../results/suite-cell-record.js';
import { taskContentChanges, taskSplitFiles } from '../tasks/content-changes.js';
import { type LoadedTask, uniqueLeaves } from '../tasks/task.js';
import { canonicalJson, type SuiteCell } from './cells.js';
import type { SuiteShard } from './shard-plan.js';
import type { ValidatedSuite } from './validate-suite.js';

export type CellState =
  | { state: 'finished'; record: SuiteCellRecord; resultsFile: string }
  /** A record of a finished run that no longer matches the suite: why, one sentence each. */
  | { state: 'changed'; reasons: string[] }
  /** No finished record (never run, killed, failed). */
  | { state: 'unfinished' };

function sliceText(slice: SuiteShard | undefined): string {
  return slice ? `doc slice ${slice.index}/${slice.count}` : 'the whole cell';
}

/** The settings whose values differ between a record and the cell, by name. */
function changedSettings(recorded: Record<string, unknown>, now: SuiteCell['settings']): string[] {
  const current = now as unknown as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(recorded), ...Object.keys(current)])].sort();
  return keys.filter((key) => canonicalJson(recorded[key] ?? null) !== canonicalJson(current[key] ?? null));
}

/**
 * A check of cells against their records. Data file listings are shared between the cells of a task set
 * (each model's cell reads the same files), so a suite of many models lists each split once.
 */
export function finishedCellCheck(
  validated: Pick<ValidatedSuite, 'taskNodes'>,
): (cell: SuiteCell, recordFile: string, slice?: SuiteShard) => Promise<CellState> {
  const listings = new Map<string, Promise<readonly { path: string; sha256: string }[]>>();
  const splitFiles = (taskSet: string) => (task: LoadedTask, split: string) => {
    const key = `${taskSet}\0${task.name}\0${split}`;
    let listing = listings.get(key);
    if (!listing) {
      listing = taskSplitFiles(task, split);
      listings.set(key, listing);
    }
    return listing;
  };
  return async (cell, recordFile, slice) => {
    const record = readSuiteCellRecord(recordFile);
    if (record?.status !== 'done' || !record.results_file) return { state: 'unfinished' };
    // A shard's doc slice finished stands for that slice only (a whole cell, for the whole cell).
    if (record.slice?.index !== slice?.index || record.slice?.count !== slice?.count)
      return {
        state: 'changed',
        reasons: [`it ran ${sliceText(record.slice)}, this run takes ${sliceText(slice)}`],
      };
    if (record.settings_hash !== cell.settingsHash) {
      const keys = changedSettings(record.settings, cell.settings);
      return {
        state: 'changed',
        reasons: [`its settings changed${keys.length ? ` (${keys.join(', ')})` : ''}`],
      };
    }
    const resultsFile = path.resolve(path.dirname(recordFile), record.results_file);
    if (!existsSync(resultsFile))
      return { state: 'changed', reasons: [`its results file ${record.results_file} is gone`] };
    let recorded: NonNullable<ReadResults['manifest']>['tasks'];
    try {
      recorded = readResultsFile(resultsFile).manifest?.tasks;
    } catch (error) {
      const message = error instanceof AssayError ? error.message : (error as Error).message;
      return { state: 'changed', reasons: [`its results file cannot be read (${message})`] };
    }
    const tasks = uniqueLeaves(validated.taskNodes.get(cell.taskSet) ?? []);
    const reasons: string[] = [];
    const now = new Set(tasks.map((task) => task.name));
    const gone = Object.keys(recorded ?? {}).filter((name) => !now.has(name));
    if (gone.length) reasons.push(`its task set no longer has ${gone.join(', ')}`);
    for (const task of tasks)
      reasons.push(...(await taskContentChanges(task, recorded?.[task.name], splitFiles(cell.taskSet))));
    return reasons.length ? { state: 'changed', reasons } : { state: 'finished', record, resultsFile };
  };
}
