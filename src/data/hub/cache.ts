/**
 * The on-disk cache for Hub files, in huggingface_hub's layout so that one cache serves both tools and
 * an air-gapped machine can take a copied folder as is:
 *
 *   <cache>/datasets--<org>--<name>/blobs/<sha256>                 file content, named by its hash
 *   <cache>/datasets--<org>--<name>/blobs/<sha256>.incomplete      a download in progress (resumed by Range)
 *   <cache>/datasets--<org>--<name>/snapshots/<commit>/<path>      relative symlink to the blob
 *   <cache>/datasets--<org>--<name>/refs/<revision>                the commit a branch or tag pointed to
 *   <cache>/models--<org>--<name>/…                                 a model repo's files (tokenizers), the same way,
 *                                                                   blobs named by their etag (sha256, or git's sha1);
 *                                                                   `.no_exist/<commit>/<path>` marks a file the Hub lacks
 *
 * The cache folder is, in order: HF_HUB_CACHE, $HF_HOME/hub, $XDG_CACHE_HOME/huggingface/hub,
 * ~/.cache/huggingface/hub (huggingface_hub's own resolution). HF_DATASETS_CACHE is not used: that
 * folder holds the `datasets` library's Arrow tables, while assay reads the parquet files directly.
 */
import { randomBytes } from 'node:crypto';
import {
  copyFile,
  lstat,
  mkdir,
  open,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export function hubCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HF_HUB_CACHE) return path.resolve(env.HF_HUB_CACHE);
  if (env.HF_HOME) return path.resolve(env.HF_HOME, 'hub');
  const xdg = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.resolve(xdg, 'huggingface', 'hub');
}

/**
 * `cais/mmlu` → `<cache>/datasets--cais--mmlu`, a model `org/name` → `<cache>/models--org--name`
 * (huggingface_hub's repo_folder_name).
 */
export function repoFolder(cacheDir: string, repoId: string, kind: 'dataset' | 'model' = 'dataset'): string {
  return path.join(cacheDir, `${kind}s--${repoId.split('/').join('--')}`);
}

/** A commit hash, which needs no ref lookup. */
export function isCommitHash(revision: string): boolean {
  return /^[0-9a-f]{40}$/.test(revision);
}

function temporaryName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** Writes a file so that readers see the old content or the new one, never a torn write. */
export async function writeFileAtomic(file: string, content: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryName(file);
  try {
    await writeFile(temporary, content);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export class HubCache {
  readonly folder: string;

  constructor(
    readonly cacheDir: string,
    readonly repoId: string,
    kind: 'dataset' | 'model' = 'dataset',
  ) {
    this.folder = repoFolder(cacheDir, repoId, kind);
  }

  blobPath(sha256: string): string {
    return path.join(this.folder, 'blobs', sha256);
  }

  incompletePath(sha256: string): string {
    return `${this.blobPath(sha256)}.incomplete`;
  }

  snapshotDir(commit: string): string {
    return path.join(this.folder, 'snapshots', commit);
  }

  snapshotPath(commit: string, file: string): string {
    return path.join(this.snapshotDir(commit), ...file.split('/'));
  }

  /** huggingface_hub's marker of a file the Hub said a commit lacks (so an offline run knows, too). */
  noExistPath(commit: string, file: string): string {
    return path.join(this.folder, '.no_exist', commit, ...file.split('/'));
  }

  /** `refs/convert/parquet` is stored as nested folders, as huggingface_hub does. */
  refPath(revision: string): string {
    return path.join(this.folder, 'refs', ...revision.split('/'));
  }

  async readRef(revision: string): Promise<string | undefined> {
    if (isCommitHash(revision)) return revision;
    try {
      return (await readFile(this.refPath(revision), 'utf8')).trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async writeRef(revision: string, commit: string): Promise<void> {
    if (isCommitHash(revision)) return;
    await writeFileAtomic(this.refPath(revision), commit);
  }

  /**
   * Points `snapshots/<commit>/<file>` at its blob: a relative symlink (the folder can be moved or
   * copied), or a copy where symlinks are not allowed (Windows without developer mode). The link is made
   * under a temporary name and renamed, so a half-made link is never visible.
   */
  async linkSnapshot(commit: string, file: string, sha256: string): Promise<string> {
    const target = this.snapshotPath(commit, file);
    await mkdir(path.dirname(target), { recursive: true });
    const blob = this.blobPath(sha256);
    const temporary = temporaryName(target);
    try {
      try {
        await symlink(path.relative(path.dirname(target), blob), temporary);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
        await copyFile(blob, temporary);
      }
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return target;
  }

  /** The blob a snapshot entry links to (its name is the file's sha256), or undefined for a copy. */
  async linkedSha256(snapshotFile: string): Promise<string | undefined> {
    const info = await lstat(snapshotFile);
    if (!info.isSymbolicLink()) return undefined;
    const name = path.basename(await readlink(snapshotFile));
    return /^[0-9a-f]{64}$/.test(name) ? name : undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `task` holding `lockFile` (created exclusively, holding our pid). A lock whose process is gone
 * (a killed run) is taken over; a live holder is waited for. The pid check assumes one machine: a cache
 * shared over a network file system between machines is not guarded against.
 */
export async function withFileLock<T>(lockFile: string, task: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(lockFile), { recursive: true });
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10);
      // An empty file is a lock being written this instant: wait, as for a live holder.
      if (Number.isInteger(holder) && holder > 0 && !processAlive(holder))
        await rm(lockFile, { force: true });
      else await sleep(50);
    }
  }
  try {
    return await task();
  } finally {
    await rm(lockFile, { force: true });
  }
}
