/**
 * A task's `dataset_path: <hub id>` (+ `dataset_name`, `revision`) → local parquet files of one split.
 *
 * The files come from the revision's own file list, so any revision works; the default revision is the
 * Hub's parquet conversion branch `refs/convert/parquet`, which exists for every dataset the Hub's viewer
 * supports (script-based ones included) and lays files out as `<config>/<split>/NNNN.parquet`. Repos that
 * ship parquet themselves (`<config>/<split>-00000-of-00001.parquet`) match too, when pinned to one of
 * their commits. The commit a revision resolved to and each file's sha256 are returned for the manifest.
 *
 * HF_HUB_OFFLINE=1 answers from the cache alone. Nothing here touches the network when it is set.
 */
import { readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { AssayError } from '../../errors.js';
import { HubCache, hubCacheDir, withFileLock } from './cache.js';
import { HubClient, type HubRevision, type HubSibling, sha256OfFile } from './client.js';
import { hubEndpoint, hubToken } from './endpoint.js';

/** The conversion branch the Hub's dataset viewer writes (huggingface_hub: `refs/convert/parquet`). */
export const PARQUET_REVISION = 'refs/convert/parquet';

export interface HubDatasetRef {
  dataset: string;
  /** `dataset_name`; null picks the only config (or `default`). */
  config?: string | null;
  revision?: string;
}

export interface HubFile {
  /** Path in the repo, e.g. `anatomy/test/0000.parquet`. */
  path: string;
  sha256: string;
  size: number;
}

/** Where a split's docs came from: goes into the results manifest. */
export interface HubDataSource {
  kind: 'hub';
  dataset: string;
  config: string;
  split: string;
  /** As the task asked for it (branch, tag or commit). */
  revision: string;
  /** The commit it resolved to. */
  commit: string;
  files: HubFile[];
}

export interface HubSplit {
  /** Local paths (snapshot entries in the cache), in repo order. */
  files: string[];
  source: HubDataSource;
}

export interface HubOptions {
  env?: NodeJS.ProcessEnv;
  cacheDir?: string;
}

export function isOffline(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['1', 'on', 'yes', 'true'].includes((env.HF_HUB_OFFLINE ?? '').trim().toLowerCase());
}

/**
 * Does `relative` (a path under the config folder) hold rows of `split`? Conversion branch:
 * `<split>/0000.parquet` or `partial-<split>/0000.parquet` (truncated big splits). Repos with their own
 * parquet: `<split>-00000-of-00003.parquet`, `<split>.parquet`, or the older `<name>-<split>.parquet`.
 */
export function fileHoldsSplit(relative: string, split: string): boolean {
  if (!relative.endsWith('.parquet')) return false;
  const parts = relative.split('/');
  if (parts.length === 2) return parts[0] === split || parts[0] === `partial-${split}`;
  if (parts.length !== 1) return false;
  const stem = parts[0].replace(/\.parquet$/, '').replace(/-\d{5}-of-\d{5}$/, '');
  return stem === split || stem.endsWith(`-${split}`);
}

function splitsIn(relativePaths: string[]): string[] {
  const found = new Set<string>();
  for (const relative of relativePaths) {
    if (!relative.endsWith('.parquet')) continue;
    const parts = relative.split('/');
    if (parts.length === 2) found.add(parts[0].replace(/^partial-/, ''));
    else if (parts.length === 1)
      found.add(
        parts[0]
          .replace(/\.parquet$/, '')
          .replace(/-\d{5}-of-\d{5}$/, '')
          .split('-')
          .pop() ?? '',
      );
  }
  return [...found].sort();
}

function configsIn(paths: string[]): string[] {
  return [
    ...new Set(
      paths
        .filter((file) => file.endsWith('.parquet') && file.includes('/'))
        .map((file) => file.split('/')[0]),
    ),
  ].sort();
}

/** A config when dataset_name is null: the only one, else `default` (HF datasets' rule). */
function pickConfig(dataset: string, configs: string[], where: string): string {
  if (configs.length === 1) return configs[0];
  if (configs.includes('default')) return 'default';
  throw new AssayError(
    'invalid_config',
    `dataset ${dataset} has ${configs.length ? `configs ${configs.join(', ')}` : 'no parquet configs'} ${where}; set dataset_name`,
    { location: { field: 'dataset_name' } },
  );
}

// One revision lookup and one listing per dataset per process: all 57 MMLU subjects share cais/mmlu.
const revisions = new Map<string, Promise<HubRevision>>();
const listings = new Map<string, Promise<Record<string, Record<string, string[]>>>>();
const downloads = new Map<string, Promise<string>>();
const refWrites = new Map<string, Promise<void>>();

function memo<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let promise = map.get(key);
  if (!promise) {
    promise = load();
    map.set(key, promise);
    promise.catch(() => map.delete(key));
  }
  return promise;
}

/** Forgets in-process lookups (tests; a long-lived process that wants to see a moved branch). */
export function clearHubMemo(): void {
  revisions.clear();
  listings.clear();
  downloads.clear();
  refWrites.clear();
}

function offlineMissing(dataset: string, what: string, cache: HubCache): AssayError {
  return new AssayError(
    'missing_data_file',
    `dataset ${dataset}: ${what} is not in the Hub cache at ${cache.folder} and HF_HUB_OFFLINE=1 forbids downloading; ` +
      `run \`assay data fetch --tasks <task>\` where the Hub is reachable and copy ${cache.cacheDir} here (or point HF_HUB_CACHE at it)`,
    { exitCode: 2 },
  );
}

async function walkFiles(root: string, prefix = ''): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(path.join(root, prefix), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: string[] = [];
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await walkFiles(root, relative)));
    else if (!entry.name.endsWith('.tmp')) out.push(relative);
  }
  return out.sort();
}

async function offlineSplit(ref: HubDatasetRef, split: string, cache: HubCache): Promise<HubSplit> {
  const revision = ref.revision ?? PARQUET_REVISION;
  const commit = await cache.readRef(revision);
  const snapshot = commit ? cache.snapshotDir(commit) : undefined;
  if (!commit || !snapshot || !(await stat(snapshot).catch(() => undefined))) {
    throw offlineMissing(ref.dataset, `revision "${revision}"`, cache);
  }
  // Only the config's own folder is walked: a run over 57 MMLU subjects must not list the whole
  // snapshot 114 times.
  const config =
    ref.config ??
    pickConfig(
      ref.dataset,
      (await readdir(snapshot, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
      `in the cache at ${snapshot}`,
    );
  const selected = (await walkFiles(path.join(snapshot, config)))
    .filter((file) => fileHoldsSplit(file, split))
    .map((file) => `${config}/${file}`);
  if (selected.length === 0) throw offlineMissing(ref.dataset, `config "${config}", split "${split}"`, cache);
  const files: HubFile[] = [];
  for (const file of selected) {
    const local = cache.snapshotPath(commit, file);
    const info = await stat(local).catch(() => undefined);
    // A dangling link means the blob was deleted: the cache cannot answer for this file.
    if (!info) throw offlineMissing(ref.dataset, `file ${file}`, cache);
    const sha256 = (await cache.linkedSha256(local)) ?? (await sha256OfFile(local));
    files.push({ path: file, sha256, size: info.size });
  }
  return {
    files: selected.map((file) => cache.snapshotPath(commit, file)),
    source: { kind: 'hub', dataset: ref.dataset, config, split, revision, commit, files },
  };
}

async function ensureFile(
  client: HubClient,
  cache: HubCache,
  dataset: string,
  commit: string,
  sibling: HubSibling,
): Promise<HubFile> {
  const local = cache.snapshotPath(commit, sibling.path);
  if (sibling.sha256) {
    const existing = await stat(local).catch(() => undefined);
    if (existing && (await cache.linkedSha256(local)) === sibling.sha256) {
      return { path: sibling.path, sha256: sibling.sha256, size: existing.size };
    }
  }
  // The same blob may be wanted by two tasks at once (mmlu subjects load in parallel): one download.
  const key = `${cache.folder}\0${commit}\0${sibling.path}`;
  const sha256 = await memo(downloads, key, async () => {
    if (sibling.sha256 && (await stat(cache.blobPath(sibling.sha256)).catch(() => undefined)))
      return sibling.sha256;
    // Without a hash from the Hub (not an LFS file) the partial download is named after the path.
    const incomplete = sibling.sha256
      ? cache.incompletePath(sibling.sha256)
      : cache.incompletePath(`${commit}-${sibling.path.replaceAll('/', '--')}`);
    // Another process (a parallel run on the same cache) may be downloading this file: the lock makes
    // it one writer per `.incomplete`; whoever waited then finds the blob in place.
    return withFileLock(`${incomplete.slice(0, -'.incomplete'.length)}.lock`, async () => {
      if (sibling.sha256 && (await stat(cache.blobPath(sibling.sha256)).catch(() => undefined)))
        return sibling.sha256;
      const actual = await client.download(
        dataset,
        commit,
        sibling.path,
        { sha256: sibling.sha256, size: sibling.size },
        incomplete,
      );
      await rename(incomplete, cache.blobPath(actual));
      return actual;
    });
  });
  await cache.linkSnapshot(commit, sibling.path, sha256);
  const info = await stat(cache.blobPath(sha256));
  return { path: sibling.path, sha256, size: info.size };
}

async function onlineSplit(
  ref: HubDatasetRef,
  split: string,
  cache: HubCache,
  env: NodeJS.ProcessEnv,
): Promise<HubSplit> {
  const client = new HubClient({ endpoint: hubEndpoint(env), token: hubToken(env) });
  const revision = ref.revision ?? PARQUET_REVISION;
  const info = await memo(revisions, `${client.endpoint}\0${ref.dataset}\0${revision}`, () =>
    client.revision(ref.dataset, revision),
  );
  const paths = info.files.map((file) => file.path);
  let config = ref.config ?? undefined;
  if (config === undefined) {
    // The Hub's parquet listing names the configs of the conversion; a pinned revision is read directly.
    const configs =
      revision === PARQUET_REVISION
        ? Object.keys(
            await memo(listings, `${client.endpoint}\0${ref.dataset}`, () =>
              client.parquetListing(ref.dataset),
            ),
          ).sort()
        : configsIn(paths);
    config = pickConfig(ref.dataset, configs, `at revision "${revision}"`);
  }
  const prefix = `${config}/`;
  const selected = info.files.filter(
    (file) => file.path.startsWith(prefix) && fileHoldsSplit(file.path.slice(prefix.length), split),
  );
  if (selected.length === 0) {
    const underConfig = paths
      .filter((file) => file.startsWith(prefix))
      .map((file) => file.slice(prefix.length));
    const detail = underConfig.length
      ? `config "${config}" has splits: ${splitsIn(underConfig).join(', ') || 'none in parquet'}`
      : `it has no config "${config}" (configs: ${configsIn(paths).join(', ') || 'none'})`;
    throw new AssayError(
      'missing_data_file',
      `dataset ${ref.dataset} at revision "${revision}" (${info.commit}): no parquet files for split "${split}"; ${detail}`,
      { exitCode: 2 },
    );
  }
  const files = await Promise.all(
    selected.map((sibling) => ensureFile(client, cache, ref.dataset, info.commit, sibling)),
  );
  // Once per dataset and revision per process, and only when it moved: 114 MMLU splits share one ref.
  await memo(refWrites, `${cache.folder}\0${revision}\0${info.commit}`, async () => {
    if ((await cache.readRef(revision)) !== info.commit) await cache.writeRef(revision, info.commit);
  });
  return {
    files: selected.map((sibling) => cache.snapshotPath(info.commit, sibling.path)),
    source: { kind: 'hub', dataset: ref.dataset, config, split, revision, commit: info.commit, files },
  };
}

/** The local parquet files of one split, downloaded into the cache unless HF_HUB_OFFLINE is set. */
export async function hubSplit(
  ref: HubDatasetRef,
  split: string,
  options: HubOptions = {},
): Promise<HubSplit> {
  const env = options.env ?? process.env;
  const cache = new HubCache(options.cacheDir ?? hubCacheDir(env), ref.dataset);
  return isOffline(env) ? offlineSplit(ref, split, cache) : onlineSplit(ref, split, cache, env);
}
