/**
 * Builds and writes `suites/NAME/suite_manifest.json` (the contract: results/suite-manifest.ts) from what
 * the suite's folder holds now: its record (suite.json), each cell's record and, for finished cells, the
 * results file's manifest. `assay suite run` writes it when it ends and `assay suite summarize` before it
 * summarizes, so it always describes the cells the summary next to it was computed from.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assayGitCommit, assayVersion } from '../report/manifest.js';
import { writeFileAtomic } from '../report/write.js';
import { readResultsFile } from '../results/read-run.js';
import { readSuiteCellRecord } from '../results/suite-cell-record.js';
import {
  SUITE_MANIFEST_SCHEMA,
  type SuiteManifest,
  type SuiteManifestCell,
  suiteManifestSchema,
} from '../results/suite-manifest.js';
import type { SuiteRecord } from '../results/suite-record.js';
import { type SuiteFolder, suiteFolder } from './suite-folder.js';
import { suiteRecordOf } from './summarize/collect.js';

function manifestCell(folder: SuiteFolder, model: string, taskSet: string): SuiteManifestCell {
  const record = readSuiteCellRecord(folder.cellRecord(model, taskSet));
  const cell: SuiteManifestCell = {
    model,
    task_set: taskSet,
    status: record?.status ?? 'missing',
    settings_hash: record?.settings_hash ?? null,
    results_file: null,
    results_sha256: null,
    assay_version: null,
    tasks: {},
  };
  if (record?.status !== 'done' || !record.results_file) return cell;
  const file = path.resolve(folder.cellFolder(model, taskSet), record.results_file);
  // A record whose results file was removed describes nothing that can be read: the cell counts as missing.
  if (!existsSync(file)) return { ...cell, status: 'missing' };
  const bytes = readFileSync(file);
  const results = readResultsFile(file);
  const recorded = results.manifest?.tasks ?? {};
  const names = Object.keys(recorded).length ? Object.keys(recorded) : Object.keys(results.task_hashes ?? {});
  return {
    ...cell,
    results_file: path.relative(folder.root, file).split(path.sep).join('/'),
    results_sha256: createHash('sha256').update(bytes).digest('hex'),
    assay_version: results.manifest?.assay?.version ?? null,
    tasks: Object.fromEntries(
      names.map((task) => [
        task,
        {
          sha256: recorded[task]?.sha256 ?? null,
          config_sha256: recorded[task]?.config_sha256 ?? null,
          prompt_template_sha256: recorded[task]?.prompt_template_sha256 ?? null,
          samples_sha256: results.task_hashes?.[task] ?? null,
        },
      ]),
    ),
  };
}

/** The manifest of a suite's folder as it is now, given its record. */
export function suiteManifestOf(folder: SuiteFolder, record: SuiteRecord): SuiteManifest {
  const manifest: SuiteManifest = {
    schema: SUITE_MANIFEST_SCHEMA,
    suite: record.name,
    version: record.version,
    suite_file: record.suite_file,
    suite_sha256: record.suite_sha256,
    assay: { version: assayVersion(), git_commit: assayGitCommit() },
    written_at: new Date().toISOString(),
    models: record.models,
    task_sets: record.task_sets,
    cells: record.models.flatMap((model) =>
      Object.keys(record.task_sets).map((taskSet) => manifestCell(folder, model.name, taskSet)),
    ),
  };
  return suiteManifestSchema.parse(manifest);
}

export function buildSuiteManifest(suitesDirectory: string, name: string): SuiteManifest {
  const folder = suiteFolder(suitesDirectory, name);
  return suiteManifestOf(folder, suiteRecordOf(folder));
}

/** Writes the manifest into the suite's folder; returns it and its path. */
export async function writeSuiteManifest(
  suitesDirectory: string,
  name: string,
): Promise<{ manifest: SuiteManifest; file: string }> {
  const manifest = buildSuiteManifest(suitesDirectory, name);
  const file = suiteFolder(suitesDirectory, name).manifest;
  await writeFileAtomic(file, `${JSON.stringify(manifest, null, 2)}\n`, '`suitesDirectory`');
  return { manifest, file };
}
