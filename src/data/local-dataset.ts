/**
 * Local dataset sources for a task: `dataset_path` of `json`/`csv`/`parquet` with
 * `dataset_kwargs.data_files`, or a `dataset_path` that is itself a local file or directory.
 *
 * Unlike HF datasets (which resolves relative data_files against the current directory, so a task works
 * only when run from the right folder), relative paths resolve against the task file's folder first and
 * the current directory second.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { fnmatchToRegExp, isGlob } from '../python/semantics/fnmatch.js';
import type { Doc } from '../task-config/doc.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { fileSha256 } from '../util/file-digest.js';
import type { HubDataSource, HubSplit } from './hub/dataset.js';
import { looksLikeHubId } from './hub/repo-id.js';
import { type DataFormat, formatOfFile, readDataFile } from './readers.js';

/** HF's packaged builders that read local files. `jsonl` is accepted as a synonym of `json`. */
const BUILDERS: Record<string, DataFormat> = { json: 'json', jsonl: 'json', csv: 'csv', parquet: 'parquet' };

export interface DatasetFiles {
  format: DataFormat | 'auto';
  /** Split name → absolute file paths, in order. */
  splits: Record<string, string[]>;
  field?: string;
}

type DatasetConfig = Pick<TaskConfig, 'dataset_path' | 'dataset_name' | 'dataset_kwargs'>;

/** Where a relative path may live, in lookup order. */
function searchRoots(baseDir: string): string[] {
  const cwd = process.cwd();
  return path.resolve(baseDir) === path.resolve(cwd) ? [baseDir] : [baseDir, cwd];
}

/**
 * Resolves a data file pattern (a path, or a glob in its last component) against the search roots.
 * A missing file names every place it looked.
 */
async function resolvePattern(pattern: string, roots: string[], taskFile: string): Promise<string[]> {
  const candidates = path.isAbsolute(pattern) ? [pattern] : roots.map((root) => path.resolve(root, pattern));
  for (const candidate of candidates) {
    if (!isGlob(path.basename(candidate))) {
      if (existsSync(candidate)) return [candidate];
      continue;
    }
    const directory = path.dirname(candidate);
    if (!existsSync(directory)) continue;
    const matcher = fnmatchToRegExp(path.basename(candidate));
    const names = (await readdir(directory)).filter((name) => matcher.test(name)).sort();
    if (names.length) return names.map((name) => path.join(directory, name));
  }
  const places = candidates.map((candidate) => path.dirname(candidate));
  const looked =
    places.length > 1 ? `looked in ${places[0]} and ${places.slice(1).join(', ')}` : `looked in ${places[0]}`;
  throw new AssayError('missing_data_file', `data file "${pattern}" not found (${looked})`, {
    location: { file: taskFile, field: 'dataset_kwargs.data_files' },
  });
}

async function resolveDataFiles(
  dataFiles: NonNullable<NonNullable<TaskConfig['dataset_kwargs']>['data_files']>,
  roots: string[],
  taskFile: string,
): Promise<Record<string, string[]>> {
  // A plain string or list is the `train` split, as in HF datasets.
  const bySplit: Record<string, string | string[]> =
    typeof dataFiles === 'string' || Array.isArray(dataFiles) ? { train: dataFiles } : dataFiles;
  const splits: Record<string, string[]> = {};
  for (const [split, patterns] of Object.entries(bySplit)) {
    const files: string[] = [];
    for (const pattern of Array.isArray(patterns) ? patterns : [patterns]) {
      files.push(...(await resolvePattern(pattern, roots, taskFile)));
    }
    splits[split] = files;
  }
  return splits;
}

/** HF's split keywords for files found in a dataset directory (datasets/data_files.py). */
const SPLIT_KEYWORDS: Record<string, string[]> = {
  train: ['train', 'training'],
  validation: ['validation', 'valid', 'dev', 'val'],
  test: ['test', 'testing', 'eval', 'evaluation'],
};

/** Infers splits of a dataset directory from file and folder names, like HF's default patterns. */
async function splitsOfDirectory(directory: string): Promise<Record<string, string[]>> {
  const files: string[] = [];
  const walk = async (current: string, depth: number): Promise<void> => {
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory() && depth < 3) await walk(full, depth + 1);
      else if (entry.isFile() && formatOfFile(entry.name)) files.push(full);
    }
  };
  await walk(directory, 0);
  const splits: Record<string, string[]> = {};
  for (const file of files) {
    const tokens = path
      .relative(directory, file)
      .toLowerCase()
      .split(/[-._ 0-9/\\]+/);
    const split = Object.keys(SPLIT_KEYWORDS).find((name) =>
      SPLIT_KEYWORDS[name].some((word) => tokens.includes(word)),
    );
    if (!split) continue;
    splits[split] ??= [];
    splits[split].push(file);
  }
  if (Object.keys(splits).length === 0 && files.length) splits.train = files;
  return splits;
}

/**
 * Finds the files behind a task's dataset. `taskFile` is the file that defines the task; relative paths
 * resolve against its folder first.
 */
export async function datasetFiles(config: DatasetConfig, taskFile: string): Promise<DatasetFiles> {
  const datasetPath = config.dataset_path;
  const kwargs = config.dataset_kwargs ?? {};
  const field = typeof kwargs.field === 'string' ? kwargs.field : undefined;
  const roots = searchRoots(path.dirname(taskFile));
  if (datasetPath === undefined) {
    throw new AssayError('invalid_config', 'task has no dataset_path', { location: { file: taskFile } });
  }
  const builder = BUILDERS[datasetPath];
  if (builder) {
    if (kwargs.data_files === undefined) {
      throw new AssayError(
        'invalid_config',
        `dataset_path "${datasetPath}" needs dataset_kwargs.data_files (the local files to read)`,
        { location: { file: taskFile, field: 'dataset_kwargs.data_files' } },
      );
    }
    return { format: builder, splits: await resolveDataFiles(kwargs.data_files, roots, taskFile), field };
  }
  const local = roots
    .map((root) => path.resolve(root, datasetPath))
    .find((candidate) => existsSync(candidate));
  if (!local) {
    const looked = roots.map((root) => path.resolve(root, datasetPath)).join(' and ');
    throw new AssayError(
      'missing_data_file',
      `dataset_path "${datasetPath}" is not a local file or directory (looked for ${looked})` +
        (looksLikeHubId(datasetPath)
          ? '; as a Hugging Face Hub dataset id it is read by loadSplit, not listed here'
          : ' nor a Hugging Face Hub dataset id'),
      { location: { file: taskFile, field: 'dataset_path' } },
    );
  }
  if (statSync(local).isFile()) {
    const format = formatOfFile(local);
    if (!format) {
      throw new AssayError(
        'bad_data',
        `cannot tell the format of ${local}; use .json, .jsonl, .csv or .parquet`,
        {
          location: { file: taskFile, field: 'dataset_path' },
        },
      );
    }
    return { format, splits: { train: [local] }, field };
  }
  const splits =
    kwargs.data_files !== undefined
      ? await resolveDataFiles(kwargs.data_files, [local], taskFile)
      : await splitsOfDirectory(local);
  return { format: 'auto', splits, field };
}

/** Reads one split of a task's dataset (local files or the Hub). An unknown split lists the ones that exist. */
export async function loadSplit(
  config: DatasetConfig & Pick<TaskConfig, 'revision'>,
  taskFile: string,
  split: string,
): Promise<Doc[]> {
  return (await loadSplitWithSource(config, taskFile, split)).docs;
}

/** A local data file as the manifest lists it and the task's content hash covers it. */
async function localFile(file: string, split: string, taskFile: string): Promise<DataFile> {
  const [info, sha256] = await Promise.all([stat(file), fileSha256(file)]);
  // Relative to the task's folder when inside it, so that the record does not depend on the checkout.
  const relative = path.relative(path.dirname(taskFile), file);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
  return { split, path: shown.split(path.sep).join('/'), size: info.size, sha256 };
}

async function loadLocalSplit(config: DatasetConfig, taskFile: string, split: string): Promise<LoadedSplit> {
  const files = await datasetFiles(config, taskFile);
  const paths = files.splits[split];
  if (!paths) {
    const available = Object.keys(files.splits);
    throw new AssayError(
      'bad_data',
      `split "${split}" not found in dataset ${config.dataset_path}; available splits: ${available.join(', ') || 'none'}`,
      { location: { file: taskFile } },
    );
  }
  const parts = await Promise.all(
    paths.map((file) => {
      const format = files.format === 'auto' ? formatOfFile(file) : files.format;
      if (!format)
        throw new AssayError('bad_data', `cannot tell the format of ${file}`, {
          location: { file: taskFile },
        });
      return readDataFile(file, format, { field: files.field });
    }),
  );
  const read = await Promise.all(paths.map((file) => localFile(file, split, taskFile)));
  return { docs: parts.length === 1 ? parts[0] : parts.flat(), files: read };
}

/** Whether a config's data is local files (no Hub dataset id); a config the Hub check rejects counts as not. */
export function hasLocalData(
  config: DatasetConfig & Pick<TaskConfig, 'revision'>,
  taskFile: string,
): boolean {
  try {
    return hubDatasetOf(config, taskFile) === undefined;
  } catch {
    return false;
  }
}

/** The Hub dataset behind a config: a dataset_path that is neither a builder nor a local path. */
function hubDatasetOf(config: DatasetConfig & Pick<TaskConfig, 'revision'>, taskFile: string) {
  const datasetPath = config.dataset_path;
  if (datasetPath === undefined || BUILDERS[datasetPath] || !looksLikeHubId(datasetPath)) return undefined;
  const roots = searchRoots(path.dirname(taskFile));
  if (roots.some((root) => existsSync(path.resolve(root, datasetPath)))) return undefined;
  if (config.dataset_kwargs?.data_files !== undefined) {
    throw new AssayError(
      'invalid_config',
      `dataset_kwargs.data_files with a Hub dataset (${datasetPath}) is not supported; use dataset_name and revision`,
      { location: { file: taskFile, field: 'dataset_kwargs.data_files' } },
    );
  }
  return { dataset: datasetPath, config: config.dataset_name ?? null, revision: config.revision };
}

/** One data file a task read: what the manifest lists and the task's content sha256 covers. */
export interface DataFile {
  split: string;
  /** Hub: the path in the dataset repo. Local: relative to the task file's folder (absolute outside it). */
  path: string;
  size: number;
  sha256: string;
}

export interface LoadedSplit {
  docs: Doc[];
  /** Every file the split's docs came from, in reading order. */
  files: DataFile[];
  /** Present for Hub data: revision, commit and file hashes, for the manifest. */
  source?: HubDataSource;
}

/**
 * The data files one split reads, with their digests, as loadSplitWithSource lists them, without reading
 * the rows: what a finished run's manifest is checked against (is this task's data still what it read?).
 * A Hub split resolves its revision and fetches its files as a run would (cached; HF_HUB_OFFLINE honoured).
 */
export async function splitDataFiles(
  config: DatasetConfig & Pick<TaskConfig, 'revision'>,
  taskFile: string,
  split: string,
): Promise<DataFile[]> {
  const hub = hubDatasetOf(config, taskFile);
  if (hub) {
    const { hubSplit } = await import('./hub/dataset.js');
    const found = await hubSplit(hub, split);
    return found.source.files.map((file) => ({ split, ...file }));
  }
  const paths = (await datasetFiles(config, taskFile)).splits[split] ?? [];
  return Promise.all(paths.map((file) => localFile(file, split, taskFile)));
}

/**
 * Reads one split from local files or, for a Hub dataset id, from the Hub cache (downloading unless
 * HF_HUB_OFFLINE is set).
 */
export async function loadSplitWithSource(
  config: DatasetConfig & Pick<TaskConfig, 'revision'>,
  taskFile: string,
  split: string,
): Promise<LoadedSplit> {
  const hub = hubDatasetOf(config, taskFile);
  if (!hub) return loadLocalSplit(config, taskFile, split);
  let found: HubSplit;
  try {
    const { hubSplit } = await import('./hub/dataset.js');
    found = await hubSplit(hub, split);
  } catch (error) {
    if (error instanceof AssayError && error.location.file === undefined) {
      throw new AssayError(error.code, error.message, {
        location: { ...error.location, file: taskFile },
        cause: error,
        exitCode: error.exitCode,
      });
    }
    throw error;
  }
  const parts = await Promise.all(found.files.map((file) => readDataFile(file, 'parquet')));
  return {
    docs: parts.length === 1 ? parts[0] : parts.flat(),
    files: found.source.files.map((file) => ({ split, ...file })),
    source: found.source,
  };
}
