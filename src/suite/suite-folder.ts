/**
 * Where a suite's files live: `suites/NAME/` holds a copy of the suite file it ran (`suite.yaml`, what
 * summarize reads), its manifest, one folder per model with its response cache, and under it one folder per task set,
 * the `outputPath` of that cell's run, with the cell's record.
 */
import path from 'node:path';

export const SUITE_COPY = 'suite.yaml';
export const CELL_RECORD = 'cell.json';
export const RESPONSE_CACHE = 'responses.sqlite';
export const SUITE_MANIFEST = 'suite_manifest.json';

export interface SuiteFolder {
  root: string;
  suiteCopy: string;
  /** suite_manifest.json: the suite's record of its cells and their hashes (suite-manifest.ts). */
  manifest: string;
  modelFolder(model: string): string;
  responseCache(model: string): string;
  cellFolder(model: string, taskSet: string): string;
  cellRecord(model: string, taskSet: string): string;
}

export function suiteFolder(suitesDirectory: string, name: string): SuiteFolder {
  const root = path.resolve(suitesDirectory, name);
  return {
    root,
    suiteCopy: path.join(root, SUITE_COPY),
    manifest: path.join(root, SUITE_MANIFEST),
    modelFolder: (model) => path.join(root, model),
    responseCache: (model) => path.join(root, model, RESPONSE_CACHE),
    cellFolder: (model, taskSet) => path.join(root, model, taskSet),
    cellRecord: (model, taskSet) => path.join(root, model, taskSet, CELL_RECORD),
  };
}
