/**
 * `suites/NAME/suite.json`: what the last `assay suite run` of a suite was given, resolved: the suite
 * file's hash and version, its models and task sets in order, each task set's leaf tasks and each scenario
 * group's. `assay suite summarize` (and the viewer) read the suite's shape from it, not from the suite
 * file, whose task paths are relative to a folder the summary need not know.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AssayError, readError } from '../errors.js';
import { firstIssue } from './read-run.js';

export const SUITE_RECORD_SCHEMA = 'assay.suite/v1';
/** The record's file name in the suite's folder: what makes a folder a suite's. */
export const SUITE_RECORD_FILE = 'suite.json';

export const suiteRecordSchema = z.object({
  schema: z.literal(SUITE_RECORD_SCHEMA),
  name: z.string(),
  /** A shard's record (a suite run's `shard` option): which slice of the cells its folder holds. */
  shard: z.object({ index: z.number().int().min(0), count: z.number().int().min(1) }).optional(),
  version: z.string(),
  description: z.string().nullable(),
  suite_file: z.string(),
  suite_sha256: z.string(),
  models: z.array(z.object({ name: z.string(), model: z.string() })),
  /** Task set → its leaf tasks, in run order. */
  task_sets: z.record(z.string(), z.array(z.string())),
  /** Scenario group → its leaf tasks. */
  groups: z.record(z.string(), z.array(z.string())),
});

export type SuiteRecord = z.output<typeof suiteRecordSchema>;

/** suite.json read and checked; a file that is not a suite record fails naming it and the first bad field. */
export function readSuiteRecord(file: string): SuiteRecord {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw readError('suite record', file, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AssayError('bad_data', `suite record is not JSON: ${(error as Error).message}`, {
      location: { file },
      cause: error,
    });
  }
  const checked = suiteRecordSchema.safeParse(value);
  if (!checked.success)
    throw new AssayError(
      'bad_data',
      `not a suite record (${SUITE_RECORD_SCHEMA}): ${firstIssue(checked.error)}`,
      {
        location: { file },
      },
    );
  return checked.data;
}
