/**
 * A suite spread over a cluster: `assay suite run --shard i/N` (or `auto`, from a Slurm array or a
 * Kubernetes Indexed Job) runs the i-th of N contiguous slices of the suite's cells, in the suite's order
 * (models one after another, each model's task sets in order), so a shard starts few backends: with as many
 * shards as models, one each. A shard writes a whole suite folder of its own, `suites/NAME/shards/i-of-N/`
 * (its cells, its response caches, its record and manifest), so shards on a shared file system never write
 * the same file. `assay suite merge NAME` then checks that all N shards ran the same suite file and copies
 * each finished cell into `suites/NAME/`, which summarize, diff and the viewer read as if one process had
 * run it. Cells are the unit: a cell's own docs are not split (a cell too large for one task is a task set
 * to divide in the suite file).
 */
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { writeFileAtomic } from '../report/write.js';
import { readSuiteCellRecord, type SuiteCellRecord } from '../results/suite-cell-record.js';
import { readSuiteRecord, type SuiteRecord } from '../results/suite-record.js';
import { suiteFolder } from './suite-folder.js';
import { writeSuiteManifest } from './suite-manifest.js';

export interface SuiteShard {
  /** From 0. */
  index: number;
  count: number;
}

/** The shard's cells: the index-th of `count` contiguous, near-equal slices. */
export function shardCells<T>(cells: readonly T[], shard: SuiteShard): T[] {
  const from = Math.floor((shard.index * cells.length) / shard.count);
  const to = Math.floor(((shard.index + 1) * cells.length) / shard.count);
  return cells.slice(from, to);
}

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
}

export interface MergedCell {
  model: string;
  taskSet: string;
  /** merged: copied from `shard`; kept: already finished in the merged folder; missing: finished nowhere. */
  status: 'merged' | 'kept' | 'missing';
  shard: number | null;
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
      // The shard that finished the cell last (a cell is in one shard, unless the count changed between runs).
      let from: { shard: (typeof shards)[number]; record: SuiteCellRecord } | undefined;
      for (const shard of shards) {
        const record = readSuiteCellRecord(shard.folder.cellRecord(model.name, taskSet));
        if (record?.status !== 'done' || !record.results_file) continue;
        if (!existsSync(path.resolve(shard.folder.cellFolder(model.name, taskSet), record.results_file)))
          continue;
        if (!from || record.started_at > from.record.started_at) from = { shard, record };
      }
      if (from) {
        cpSync(from.shard.folder.cellFolder(model.name, taskSet), merged.cellFolder(model.name, taskSet), {
          recursive: true,
        });
        cells.push({ model: model.name, taskSet, status: 'merged', shard: from.shard.index });
        continue;
      }
      const kept = readSuiteCellRecord(merged.cellRecord(model.name, taskSet))?.status === 'done';
      cells.push({ model: model.name, taskSet, status: kept ? 'kept' : 'missing', shard: null });
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
