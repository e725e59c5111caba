/**
 * A suite spread over a cluster: `assay suite run --shard i/N` (or `auto`, from a Slurm array or a
 * Kubernetes Indexed Job) runs the i-th shard's part of the suite's cells (shard-plan.ts: whole cells, or
 * with fewer cells than shards a doc slice of one). A shard writes a whole suite folder of its own,
 * `suites/NAME/shards/i-of-N/` (its cells, its response caches, its record and manifest), so shards on a
 * shared file system never write the same file. `assay suite merge NAME` then checks that all N shards ran
 * the same suite file, copies each whole cell into `suites/NAME/`, merges each cell's doc slices into the
 * unsharded cell's run (merge-cell-slices.ts) and gathers the shards' response caches per model, so that
 * summarize, diff, the viewer and a rerun read the suite as if one process had run it.
 */
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { mergeResponseCaches } from '../cache/merge-response-caches.js';
import { AssayError } from '../errors.js';
import type { Logger } from '../events.js';
import { writeFileAtomic } from '../report/write.js';
import { readSuiteCellRecord, type SuiteCellRecord } from '../results/suite-cell-record.js';
import { readSuiteRecord, type SuiteRecord } from '../results/suite-record.js';
import { type CellSlice, mergeCellSlices } from './merge-cell-slices.js';
import type { SuiteShard } from './shard-plan.js';
import { suiteFolder } from './suite-folder.js';
import { writeSuiteManifest } from './suite-manifest.js';

const SHARD_NAME = /^(\d+)-of-(\d+)$/;

/** A shard's suite folder, as (suites directory, name) for suiteFolder. */
export function shardLocation(
  suitesDirectory: string,
  name: string,
  shard: SuiteShard,
): { directory: string; name: string } {
  return { directory: path.join(suitesDirectory, name, 'shards'), name: `${shard.index}-of-${shard.count}` };
}

export interface MergeSuiteOptions {
  name: string;
  /** Default `suites`. */
  suitesDirectory?: string;
  /** Warnings of the merges of cells' doc slices. */
  logger?: Logger;
}

export interface MergedCell {
  model: string;
  taskSet: string;
  /**
   * merged: copied from `shard`, or merged from its doc slices; kept: already finished in the merged
   * folder; missing: finished nowhere (or some of its slices not finished).
   */
  status: 'merged' | 'kept' | 'missing';
  /** The shard a whole cell came from. */
  shard: number | null;
  /** A cell the shards ran as doc slices: their count, the shards that finished one, the slices missing. */
  slices?: { count: number; shards: number[]; missing: number[] };
}

export interface MergeSuiteResult {
  folder: string;
  shards: number;
  cells: MergedCell[];
  manifestFile: string;
}

export async function mergeSuite(options: MergeSuiteOptions): Promise<MergeSuiteResult> {
  const suitesDirectory = options.suitesDirectory ?? 'suites';
  const merged = suiteFolder(suitesDirectory, options.name);
  const shardsDirectory = path.join(merged.root, 'shards');
  const found = existsSync(shardsDirectory)
    ? readdirSync(shardsDirectory).flatMap((entry) => {
        const match = SHARD_NAME.exec(entry);
        return match ? [{ entry, index: Number(match[1]), count: Number(match[2]) }] : [];
      })
    : [];
  if (found.length === 0)
    throw new AssayError(
      'not_found',
      `no shards of suite ${options.name} in ${shardsDirectory}: run it with \`shard\` first`,
      { location: { file: shardsDirectory } },
    );
  const counts = [...new Set(found.map((shard) => shard.count))];
  if (counts.length > 1)
    throw new AssayError(
      'bad_data',
      `the shards of suite ${options.name} were run with different counts (${found.map((shard) => shard.entry).join(', ')}); remove the stale ones from ${shardsDirectory}`,
      { location: { file: shardsDirectory } },
    );
  const count = counts[0];
  const missing = Array.from({ length: count }, (_, index) => index).filter(
    (index) => !found.some((shard) => shard.index === index),
  );
  if (missing.length)
    throw new AssayError(
      'bad_data',
      `suite ${options.name}: shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}-of-${count}`).join(', ')} missing from ${shardsDirectory}: run ${missing.length > 1 ? 'them' : 'it'} first`,
      { location: { file: shardsDirectory } },
    );
  const shards = found
    .sort((a, b) => a.index - b.index)
    .map((shard) => {
      const folder = suiteFolder(shardsDirectory, shard.entry);
      return { ...shard, folder, record: readSuiteRecord(path.join(folder.root, 'suite.json')) };
    });
  const first = shards[0];
  for (const shard of shards.slice(1))
    if (shard.record.suite_sha256 !== first.record.suite_sha256)
      throw new AssayError(
        'bad_data',
        `suite ${options.name}: shard ${shard.entry} ran another suite file (sha256 ${shard.record.suite_sha256.slice(0, 12)}) than shard ${first.entry} (${first.record.suite_sha256.slice(0, 12)}); run every shard with the same file`,
        { location: { file: path.join(shard.folder.root, 'suite.json') } },
      );

  const cells: MergedCell[] = [];
  for (const model of first.record.models)
    for (const taskSet of Object.keys(first.record.task_sets)) {
      // The finished runs of the cell in the shards: whole, or doc slices (shard-plan.ts).
      let whole: { shard: (typeof shards)[number]; record: SuiteCellRecord } | undefined;
      const slices: (CellSlice & { index: number })[] = [];
      for (const shard of shards) {
        const record = readSuiteCellRecord(shard.folder.cellRecord(model.name, taskSet));
        if (record?.status !== 'done' || !record.results_file) continue;
        if (!existsSync(path.resolve(shard.folder.cellFolder(model.name, taskSet), record.results_file)))
          continue;
        if (record.slice)
          slices.push({ shard: shard.entry, folder: shard.folder, record, index: shard.index });
        // The shard that finished it last (a cell is in one shard, unless the plan changed between runs).
        else if (!whole || record.started_at > whole.record.started_at) whole = { shard, record };
      }
      const sliced = completeSlices(slices);
      const slicedAt =
        sliced
          ?.map((slice) => slice.record.started_at)
          .sort()
          .at(-1) ?? '';
      // The newer of a whole run and a complete set of slices (both exist only when the plan changed).
      if (sliced && !(whole && whole.record.started_at > slicedAt)) {
        if (!mergedFrom(merged, sliced)) await mergeCellSlices(sliced, merged, { logger: options.logger });
        cells.push({
          model: model.name,
          taskSet,
          status: 'merged',
          shard: null,
          slices: { count: sliced.length, shards: sliced.map((slice) => slice.index), missing: [] },
        });
        continue;
      }
      if (whole) {
        cpSync(whole.shard.folder.cellFolder(model.name, taskSet), merged.cellFolder(model.name, taskSet), {
          recursive: true,
        });
        await recordGatheredCache(
          path.resolve(merged.cellFolder(model.name, taskSet), whole.record.results_file ?? ''),
          whole.shard.folder.responseCache(model.name),
          merged.responseCache(model.name),
        );
        cells.push({ model: model.name, taskSet, status: 'merged', shard: whole.shard.index });
        continue;
      }
      const kept = readSuiteCellRecord(merged.cellRecord(model.name, taskSet))?.status === 'done';
      cells.push({
        model: model.name,
        taskSet,
        status: kept ? 'kept' : 'missing',
        shard: null,
        ...(slices.length ? { slices: partialSlices(slices) } : {}),
      });
    }
  for (const model of first.record.models) {
    const caches = shards
      .map((shard) => shard.folder.responseCache(model.name))
      .filter((file) => existsSync(file));
    if (caches.length)
      mergeResponseCaches(merged.responseCache(model.name), caches, {
        onConflict: (source, count) =>
          options.logger?.warn(
            `model ${model.name}: ${count} answer${count === 1 ? '' : 's'} of the response cache ${source} differ from those already gathered in ${merged.responseCache(model.name)} for the same requests (the backend answered them differently, as non-deterministic decoding does); the first are kept, and each cell's results keep the answers it was scored with`,
          ),
      });
  }
  const { shard: _shard, ...whole } = first.record;
  const record: SuiteRecord = { ...whole, name: options.name };
  await writeFileAtomic(
    path.join(merged.root, 'suite.json'),
    `${JSON.stringify(record, null, 2)}\n`,
    '`suitesDirectory`',
  );
  await copyFile(first.folder.suiteCopy, merged.suiteCopy);
  const { file: manifestFile } = await writeSuiteManifest(suitesDirectory, options.name);
  return { folder: merged.root, shards: count, cells, manifestFile };
}

/**
 * A whole cell copied from a shard ran with the shard's response cache of its model, which the merge
 * gathers into the suite's: its results file then names the suite's cache, as an unsharded run's does
 * (the file is otherwise unchanged: results files are written as JSON.stringify(results, null, 2)).
 */
async function recordGatheredCache(
  resultsFile: string,
  shardCache: string,
  suiteCache: string,
): Promise<void> {
  const text = readFileSync(resultsFile, 'utf8');
  const results = JSON.parse(text) as { config?: { use_cache?: unknown } };
  if (results.config?.use_cache !== shardCache) return;
  results.config.use_cache = suiteCache;
  await writeFileAtomic(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
}

/**
 * Whether the merged folder already holds the cell merged from these slices (a merge run again): a finished
 * record with their settings, their first start, their summed time (merge-cell-slices.ts: a slice that ran
 * again since has another) and its results file there.
 */
function mergedFrom(merged: ReturnType<typeof suiteFolder>, slices: readonly CellSlice[]): boolean {
  const { model, task_set: taskSet, settings_hash: hash } = slices[0].record;
  const record = readSuiteCellRecord(merged.cellRecord(model, taskSet));
  const startedAt = slices.map((slice) => slice.record.started_at).sort()[0];
  return (
    record?.status === 'done' &&
    !record.slice &&
    record.settings_hash === hash &&
    record.started_at === startedAt &&
    record.seconds === slices.reduce((sum, slice) => sum + slice.record.seconds, 0) &&
    record.results_file !== null &&
    existsSync(path.resolve(merged.cellFolder(model, taskSet), record.results_file))
  );
}

/** The newest complete set of a cell's doc slices (every index of one count), or undefined. */
function completeSlices<T extends CellSlice>(slices: readonly T[]): T[] | undefined {
  const counts = [...new Set(slices.map((slice) => slice.record.slice?.count ?? 0))];
  const complete = counts.flatMap((count) => {
    const set = Array.from(
      { length: count },
      (_, index) =>
        slices
          .filter((slice) => slice.record.slice?.count === count && slice.record.slice.index === index)
          .sort((a, b) => (a.record.started_at < b.record.started_at ? 1 : -1))[0],
    );
    return set.every((slice) => slice !== undefined) ? [set] : [];
  });
  const newest = (set: T[]) =>
    set
      .map((slice) => slice.record.started_at)
      .sort()
      .at(-1) ?? '';
  return complete.sort((a, b) => (newest(a) < newest(b) ? 1 : -1))[0];
}

/** What an incomplete set of slices lacks (of the count most slices ran with). */
function partialSlices(
  slices: readonly (CellSlice & { index: number })[],
): NonNullable<MergedCell['slices']> {
  const count = slices[0].record.slice?.count ?? 0;
  const same = slices.filter((slice) => slice.record.slice?.count === count);
  const done = new Set(same.map((slice) => slice.record.slice?.index));
  return {
    count,
    shards: same.map((slice) => slice.index),
    missing: Array.from({ length: count }, (_, index) => index).filter((index) => !done.has(index)),
  };
}
