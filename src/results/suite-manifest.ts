/**
 * `suites/NAME/suite_manifest.json`: the record of what a suite is made of, written by `assay suite run`
 * and `assay suite summarize` (src/suite/suite-manifest.ts): the suite file's sha256 and version, assay's
 * version, and for every cell its status, settings hash, results file (path and sha256) and each task's
 * hashes as its run's manifest recorded them. Two suites' manifests say whether they evaluated the same
 * tasks with the same settings; `assay suite diff` reports what differs.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AssayError } from '../errors.js';

export const SUITE_MANIFEST_SCHEMA = 'assay.suite-manifest/v1';

export const suiteManifestTaskSchema = z.object({
  /** The task's content: config, imported modules, data files (the run manifest's `sha256`). */
  sha256: z.string().nullable(),
  /** The config alone: the task file, its includes and `!function` modules. */
  config_sha256: z.string().nullable(),
  prompt_template_sha256: z.string().nullable(),
  /** lm-eval's task hash over every sample's doc, prompt and target hashes (results.json `task_hashes`). */
  samples_sha256: z.string().nullable(),
});

export const suiteManifestCellSchema = z.object({
  model: z.string(),
  task_set: z.string(),
  /** done: finished with a results file; failed: its last run stopped; missing: never run (or killed). */
  status: z.enum(['done', 'failed', 'missing']),
  /** sha256 of the cell's settings (canonical JSON), from its record; null when never run. */
  settings_hash: z.string().nullable(),
  /** The results file, relative to the suite's folder, and its sha256 (done cells). */
  results_file: z.string().nullable(),
  results_sha256: z.string().nullable(),
  /** The assay version that ran the cell (its results' manifest), which may be older than the writer's. */
  assay_version: z.string().nullable(),
  /** Leaf task → its hashes, from the results file's manifest (done cells). */
  tasks: z.record(z.string(), suiteManifestTaskSchema),
});

export const suiteManifestSchema = z.object({
  schema: z.literal(SUITE_MANIFEST_SCHEMA),
  suite: z.string(),
  version: z.string(),
  suite_file: z.string(),
  suite_sha256: z.string(),
  /** The assay that wrote this manifest (each cell records the one that ran it). */
  assay: z.object({ version: z.string(), git_commit: z.string().nullable() }),
  written_at: z.string(),
  models: z.array(z.object({ name: z.string(), model: z.string() })),
  /** Task set → its leaf tasks, in run order. */
  task_sets: z.record(z.string(), z.array(z.string())),
  /** Models in the suite's order, each model's task sets in order. */
  cells: z.array(suiteManifestCellSchema),
});

export type SuiteManifest = z.output<typeof suiteManifestSchema>;
export type SuiteManifestCell = z.output<typeof suiteManifestCellSchema>;
export type SuiteManifestTask = z.output<typeof suiteManifestTaskSchema>;

/** Checks a parsed suite manifest against the contract; `file` names it in the error. */
export function parseSuiteManifest(value: unknown, file: string): SuiteManifest {
  const checked = suiteManifestSchema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new AssayError(
      'bad_data',
      `not a suite manifest: ${issue ? `${issue.path.join('.') || '(file)'}: ${issue.message}` : 'invalid'}`,
      { location: { file } },
    );
  }
  return checked.data;
}

/** The one reader of suite_manifest.json. */
export function readSuiteManifest(file: string): SuiteManifest {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AssayError('bad_data', `cannot read the suite manifest: ${(error as Error).message}`, {
      location: { file },
      cause: error,
    });
  }
  return parseSuiteManifest(value, file);
}
