/**
 * Named files of a model repo at a revision (a tokenizer's: tokenizer.json and the files beside it), put
 * in the Hub cache as huggingface_hub's `hf_hub_download` puts them (file_download.py,
 * `_hf_hub_download_to_cache_dir`), so that transformers and assay share one cache:
 *   - one HEAD of `<endpoint>/<repo>/resolve/<revision>/<file>` per file (HubClient.fileMetadata): the
 *     commit (`X-Repo-Commit`) and the etag, which names the blob (`blobs/<etag>`);
 *   - the bytes from where the resolve URL leads (a CDN for LFS files), checked against the etag: an LFS
 *     file's sha256, or a plain file's git blob sha1;
 *   - `snapshots/<commit>/<file>` → the blob, `refs/<revision>` → the commit, and `.no_exist/<commit>/<file>`
 *     for a file the Hub said the commit lacks.
 * Every file after the first is asked for at the first one's commit, so all come from one commit even if
 * the branch moves meanwhile. With HF_HUB_OFFLINE=1, or when the Hub cannot be reached, the answer comes
 * from the cache alone (`refs/<revision>` → the snapshot), as huggingface_hub falls back to it.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import { AssayError } from '../../errors.js';
import { HubCache, hubCacheDir, isCommitHash, withFileLock, writeFileAtomic } from './cache.js';
import { HubClient } from './client.js';
import { isOffline } from './dataset.js';
import { hubEndpoint, hubToken } from './endpoint.js';

export interface ModelFilesRequest {
  repo: string;
  /** A branch, tag or commit (huggingface_hub's default is `main`). */
  revision: string;
  /** Files the repo must have. */
  required: string[];
  /** Files used when the repo has them. */
  optional: string[];
}

export interface ModelSnapshot {
  repo: string;
  revision: string;
  commit: string;
  /** `<cache>/models--org--name/snapshots/<commit>`. */
  folder: string;
  /** Each file the repo has → its path in the snapshot. */
  files: Record<string, string>;
  /** hub: the Hub answered now; cache: HF_HUB_OFFLINE=1, or the Hub could not be reached. */
  from: 'hub' | 'cache';
}

/** Why there is no snapshot: the Hub's word (repo, revision, a required file), or no Hub and no cache. */
export type ModelFilesOutcome =
  | { ok: true; snapshot: ModelSnapshot }
  | {
      ok: false;
      reason: 'repo' | 'revision' | 'file' | 'offline' | 'unreachable';
      /** The required file missing (reason file), or missing from the cache. */
      file?: string;
      /** The cache folder looked in, and what the Hub answered or why it could not be asked. */
      cacheFolder: string;
      detail: string;
    };

export interface ModelFilesOptions {
  env?: NodeJS.ProcessEnv;
  cacheDir?: string;
}

export async function modelFiles(
  request: ModelFilesRequest,
  options: ModelFilesOptions = {},
): Promise<ModelFilesOutcome> {
  const env = options.env ?? process.env;
  const cache = new HubCache(options.cacheDir ?? hubCacheDir(env), request.repo, 'model');
  if (isOffline(env)) return fromCache(request, cache, 'offline', 'HF_HUB_OFFLINE is set');
  const client = new HubClient({ endpoint: hubEndpoint(env), token: hubToken(env), kind: 'model' });
  let commit: string | undefined;
  const files: Record<string, string> = {};
  for (const file of [...request.required, ...request.optional]) {
    const meta = await client.fileMetadata(request.repo, commit ?? request.revision, file);
    if (!meta.found) {
      if (meta.reason === 'unreachable')
        return fromCache(request, cache, 'unreachable', `cannot reach ${client.endpoint}: ${meta.detail}`);
      if (meta.reason !== 'file') return failure(meta.reason, cache, `${client.endpoint}: ${meta.detail}`);
      commit ??= meta.commit;
      if (commit) await writeFileAtomic(cache.noExistPath(commit, file), '');
      if (request.required.includes(file))
        return failure('file', cache, `${client.endpoint}: ${meta.detail}`, file);
      continue;
    }
    commit ??= meta.commit;
    files[file] = await ensureFile(client, cache, request.repo, commit, file, meta);
  }
  if (!commit) throw new Error('unreachable: no file was asked for');
  if (!isCommitHash(request.revision) && (await cache.readRef(request.revision)) !== commit)
    await cache.writeRef(request.revision, commit);
  return found(request, cache, commit, files, 'hub');
}

function found(
  request: ModelFilesRequest,
  cache: HubCache,
  commit: string,
  files: Record<string, string>,
  from: ModelSnapshot['from'],
): ModelFilesOutcome {
  const snapshot = { repo: request.repo, revision: request.revision, commit, files, from };
  return { ok: true, snapshot: { ...snapshot, folder: cache.snapshotDir(commit) } };
}

function failure(
  reason: 'repo' | 'revision' | 'file' | 'offline' | 'unreachable',
  cache: HubCache,
  detail: string,
  file?: string,
): ModelFilesOutcome {
  return { ok: false, reason, cacheFolder: cache.folder, detail, ...(file ? { file } : {}) };
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined)) !== undefined;
}

async function fromCache(
  request: ModelFilesRequest,
  cache: HubCache,
  reason: 'offline' | 'unreachable',
  detail: string,
): Promise<ModelFilesOutcome> {
  const commit = await cache.readRef(request.revision);
  if (!commit || !(await exists(cache.snapshotDir(commit))))
    return failure(reason, cache, `${detail}; the cache has no revision "${request.revision}"`);
  const files: Record<string, string> = {};
  for (const file of [...request.required, ...request.optional]) {
    // A dangling link (a deleted blob) is as good as no file.
    const local = cache.snapshotPath(commit, file);
    if (await exists(local)) files[file] = local;
    else if (request.required.includes(file))
      return failure(reason, cache, `${detail}; the cache's snapshot ${commit} has no ${file}`, file);
  }
  return found(request, cache, commit, files, 'cache');
}

/** The snapshot entry of one file, downloading its blob unless the cache has it. */
async function ensureFile(
  client: HubClient,
  cache: HubCache,
  repo: string,
  commit: string,
  file: string,
  meta: { etag: string; size: number | undefined },
): Promise<string> {
  const blob = cache.blobPath(meta.etag);
  if (!(await exists(blob))) {
    const incomplete = cache.incompletePath(meta.etag);
    // One writer per blob across processes sharing the cache; a waiter then finds the blob in place.
    await withFileLock(`${blob}.lock`, async () => {
      if (await exists(blob)) return;
      const lfs = /^[0-9a-f]{64}$/.test(meta.etag);
      await client.download(
        repo,
        commit,
        file,
        { sha256: lfs ? meta.etag : undefined, size: meta.size },
        incomplete,
      );
      if (!lfs && /^[0-9a-f]{40}$/.test(meta.etag)) await checkGitBlob(incomplete, meta.etag, repo, file);
      await rename(incomplete, blob);
    });
  }
  return cache.linkSnapshot(commit, file, meta.etag);
}

/** A plain (non-LFS) file's etag is git's blob id: sha1 of `blob <size>\0` and the content. */
async function checkGitBlob(file: string, etag: string, repo: string, name: string): Promise<void> {
  const content = await readFile(file);
  const actual = createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
  if (actual !== etag) {
    await rm(file, { force: true });
    throw new AssayError(
      'hub_error',
      `file ${name} of model ${repo}: git blob id ${actual} does not match the Hub's ETag ${etag}`,
      { exitCode: 1 },
    );
  }
}
