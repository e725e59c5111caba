/**
 * One suite cell assembled from the doc slices that several shards ran of it (shard-plan.ts: a suite with
 * fewer cells than shards): the slices' runs go through `assay merge`'s own code (report/merge/), which
 * rebuilds the unsharded run from their sample logs, into the cell's folder of the merged suite, and the
 * cell's record says it finished as a whole cell would. The merged run equals an unsharded cell's except
 * for timing (docs/cluster.md), so summarize, diff and a rerun's skip check read it as one.
 */
import path from 'node:path';
import { AssayError } from '../errors.js';
import type { Logger } from '../events.js';
import { mergeShards } from '../report/merge/merge-shards.js';
import { writeFileAtomic } from '../report/write.js';
import { readResultsFile } from '../results/read-run.js';
import { SUITE_CELL_SCHEMA, type SuiteCellRecord } from '../results/suite-cell-record.js';
import type { SuiteFolder } from './suite-folder.js';

/** A finished slice: the shard that ran it, that shard's suite folder and the slice's cell record. */
export interface CellSlice {
  shard: string;
  folder: SuiteFolder;
  record: SuiteCellRecord;
}

/** The slices' results files, each in its shard's cell folder. */
function resultsFile(slice: CellSlice): string {
  const { model, task_set: taskSet, results_file: file } = slice.record;
  return path.resolve(slice.folder.cellFolder(model, taskSet), file ?? '');
}

/**
 * Merges the slices (one per index 0..count−1, finished) into `into`'s cell folder and writes the cell's
 * record there. Slices that ran with other settings than each other are refused: they are not one run.
 */
export async function mergeCellSlices(
  slices: readonly CellSlice[],
  into: SuiteFolder,
  options: { logger?: Logger } = {},
): Promise<SuiteCellRecord> {
  const ordered = [...slices].sort((a, b) => (a.record.slice?.index ?? 0) - (b.record.slice?.index ?? 0));
  const first = ordered[0];
  const { model, task_set: taskSet } = first.record;
  for (const slice of ordered.slice(1))
    if (slice.record.settings_hash !== first.record.settings_hash)
      throw new AssayError(
        'incompatible_runs',
        `cell ${model} × ${taskSet}: shard ${slice.shard} ran its doc slice with other settings (hash ${slice.record.settings_hash.slice(0, 12)}) than shard ${first.shard} (${first.record.settings_hash.slice(0, 12)}); run every shard with the same suite file`,
        { location: { file: slice.folder.cellRecord(model, taskSet) } },
      );
  const cellFolder = into.cellFolder(model, taskSet);
  const merged = await mergeShards({
    shards: ordered.map(resultsFile),
    outputPath: cellFolder,
    logger: options.logger,
    // The merged cell records the suite's cache of its model, as an unsharded cell run does (when it had one).
    useCache: readResultsFile(resultsFile(first)).config.use_cache ? into.responseCache(model) : undefined,
  });
  const { slice: _slice, ...whole } = first.record;
  const record: SuiteCellRecord = {
    ...whole,
    schema: SUITE_CELL_SCHEMA,
    status: 'done',
    results_file: path.relative(cellFolder, merged.files.results),
    errored_samples: merged.erroredSamples,
    error: null,
    // The run started when its first slice did, and took the slices' time together.
    started_at: ordered.map((slice) => slice.record.started_at).sort()[0],
    seconds: ordered.reduce((sum, slice) => sum + slice.record.seconds, 0),
  };
  await writeFileAtomic(into.cellRecord(model, taskSet), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}
