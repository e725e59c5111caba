/**
 * A suite cell's record, `suites/NAME/<model>/<task set>/cell.json`: which settings the cell ran with
 * (their hash decides whether a rerun skips it), how it ended and which results file it wrote. Written by
 * `assay suite run` (src/suite/), read by the run's skip check, `assay suite summarize` and the viewer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

export const SUITE_CELL_SCHEMA = 'assay.suite-cell/v1';
/** The record's file name in the cell's folder. */
export const SUITE_CELL_FILE = 'cell.json';

export const suiteCellRecordSchema = z.object({
  schema: z.literal(SUITE_CELL_SCHEMA),
  suite_version: z.string(),
  model: z.string(),
  task_set: z.string(),
  /** sha256 of the cell's settings as canonical JSON (src/suite/cells.ts). */
  settings_hash: z.string(),
  settings: z.record(z.string(), z.unknown()),
  /**
   * A shard's doc slice of the cell (a sharded suite run, `shard`, with fewer cells than shards): the run took
   * the docs at positions p with p mod count = index. Absent: the whole cell.
   */
  slice: z.object({ index: z.number().int().min(0), count: z.number().int().min(2) }).optional(),
  /** `done`: the run finished and wrote its files (some samples may have errored); `failed`: it stopped. */
  status: z.enum(['done', 'failed']),
  /** The results file, relative to the cell's folder (done cells). */
  results_file: z.string().nullable(),
  /** Samples that errored in the run (done cells). */
  errored_samples: z.number().int().min(0),
  /** Why the cell failed. */
  error: z.string().nullable(),
  started_at: z.string(),
  seconds: z.number().min(0),
});

export type SuiteCellRecord = z.output<typeof suiteCellRecordSchema>;

/** A cell record, or undefined when the text is not one (an older or foreign file: the cell runs again). */
export function parseSuiteCellRecord(text: string): SuiteCellRecord | undefined {
  try {
    const checked = suiteCellRecordSchema.safeParse(JSON.parse(text));
    return checked.success ? checked.data : undefined;
  } catch {
    return undefined;
  }
}

/** The record in a cell's folder, or undefined when there is none (never run, killed) or not one. */
export function readSuiteCellRecord(file: string): SuiteCellRecord | undefined {
  return existsSync(file) ? parseSuiteCellRecord(readFileSync(file, 'utf8')) : undefined;
}
