/**
 * All-or-nothing output for a run's several files. They are written and synced in a hidden staging
 * folder beside their targets; a journal listing them marks the run committed; then each is renamed
 * into place (results before the leaderboard, sample logs before both) and the folder removed.
 *
 * A run killed before the journal leaves only its staging folder, which the next writer into the same
 * folder deletes: nothing of the run is ever visible. A run killed after it has its files on disk, and
 * the next writer finishes the renames (roll forward). No `.tmp` file is ever beside the outputs.
 */
import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isStagingName, STAGING_PREFIX } from '../results/run-files.js';

const JOURNAL = 'commit.json';

export interface StagedFile {
  name: string;
  /** The text, in one piece or several, or a file written and synced already, moved into place. */
  content: string | Iterable<string> | { file: string };
}

/** Points of the commit, reported in order (tests kill the writer at each one). */
export type CommitStep = 'staged' | 'journaled' | `renamed ${string}` | 'done';

/** Writes every byte of `buffers` (writev may write fewer than it was given). */
async function writeAll(handle: FileHandle, buffers: Buffer[]): Promise<void> {
  let pending = buffers;
  let size = pending.reduce((sum, buffer) => sum + buffer.length, 0);
  while (size > 0) {
    const { bytesWritten } = await handle.writev(pending);
    if (bytesWritten >= size) return;
    pending = [Buffer.concat(pending).subarray(bytesWritten)];
    size -= bytesWritten;
  }
}

// Pieces per writev, below every platform's IOV_MAX (1,024 on Linux and macOS).
const PIECES_PER_WRITE = 512;

async function writeSynced(file: string, content: string | Iterable<string>): Promise<void> {
  const handle = await open(file, 'wx');
  try {
    if (typeof content === 'string') await handle.writeFile(content, 'utf8');
    else {
      // Each piece (a sample line) encoded on its own and written with its neighbours in one writev:
      // concatenating megabytes of lines into one string first made V8 copy them all once more.
      let buffers: Buffer[] = [];
      let size = 0;
      for (const piece of content) {
        const buffer = Buffer.from(piece, 'utf8');
        buffers.push(buffer);
        size += buffer.length;
        if (size > 1 << 20 || buffers.length === PIECES_PER_WRITE) {
          await writeAll(handle, buffers);
          buffers = [];
          size = 0;
        }
      }
      if (buffers.length) await writeAll(handle, buffers);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync of a folder, so the renames and entries in it survive a power cut. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on folders; the renames are still atomic.
  } finally {
    await handle.close();
  }
}

/** Writes `files` into `directory` so that they appear together; later files are renamed last. */
export async function writeStaged(
  directory: string,
  label: string,
  files: StagedFile[],
  onStep?: (step: CommitStep) => void,
): Promise<void> {
  const staging = path.join(
    directory,
    `${STAGING_PREFIX}${label}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  await mkdir(staging);
  try {
    for (const file of files) {
      const target = path.join(staging, file.name);
      const { content } = file;
      // A file written beside the outputs (a chunked task's sample log) is renamed, not copied.
      if (typeof content === 'object' && 'file' in content) await rename(content.file, target);
      else await writeSynced(target, content);
    }
    onStep?.('staged');
    await writeSynced(path.join(staging, JOURNAL), JSON.stringify({ files: files.map((file) => file.name) }));
    await syncDirectory(staging);
  } catch (error) {
    // Not committed: the run leaves nothing behind.
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  onStep?.('journaled');
  await rollForward(
    directory,
    staging,
    files.map((file) => file.name),
    onStep,
  );
  onStep?.('done');
}

async function rollForward(
  directory: string,
  staging: string,
  names: string[],
  onStep?: (step: CommitStep) => void,
): Promise<string[]> {
  const moved: string[] = [];
  for (const name of names) {
    const from = path.join(staging, name);
    if (!(await stat(from).catch(() => null))) continue;
    await rename(from, path.join(directory, name));
    moved.push(name);
    onStep?.(`renamed ${name}`);
  }
  await syncDirectory(directory);
  await rm(staging, { recursive: true, force: true });
  return moved;
}

/**
 * Staging folders this process is still writing into outside writeStaged (a chunked task's sample spool,
 * sample-spool.ts): recoverStaged leaves them alone, though their pid is this process's.
 */
const inUse = new Set<string>();

/** Marks a staging folder as written by this process until `release`. */
export function holdStaging(folder: string): { release: () => void } {
  const resolved = path.resolve(folder);
  inUse.add(resolved);
  return { release: () => inUse.delete(resolved) };
}

/** Whether the process named in a staging folder's or probe's name (`…-<pid>-<hex>`) still runs. */
function writerAlive(name: string): boolean {
  const pid = Number(/-(\d+)-[0-9a-f]+$/.exec(name)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// What writeFileAtomic left behind before runs were staged: `<file>.<12 hex>.tmp`.
const LEGACY_TEMPORARY = /\.jsonl?\.[0-9a-f]{12}\.tmp$/;
// The output folder's write probe (output-directory.ts), left by a run killed at that instant.
const WRITE_PROBE = /^\.assay-write-check-\d+-[0-9a-f]+$/;

export interface Recovery {
  /** Files of committed runs that were renamed into place now. */
  completed: string[];
  /** Staging folders of uncommitted runs (and stray temporary files) removed. */
  removed: string[];
}

/**
 * Finishes what killed writers left in `directory`: committed runs are rolled forward, uncommitted
 * ones removed. Staging folders of writers still running are left alone.
 */
export async function recoverStaged(directory: string): Promise<Recovery> {
  const recovery: Recovery = { completed: [], removed: [] };
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return recovery;
  }
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    const probe = WRITE_PROBE.test(entry.name) && !writerAlive(entry.name);
    if (entry.isFile() && (LEGACY_TEMPORARY.test(entry.name) || probe)) {
      await rm(full, { force: true });
      recovery.removed.push(entry.name);
      continue;
    }
    if (!entry.isDirectory() || !isStagingName(entry.name) || writerAlive(entry.name)) continue;
    if (inUse.has(path.resolve(full))) continue;
    let names: string[] | undefined;
    try {
      const journal = JSON.parse(await readFile(path.join(full, JOURNAL), 'utf8')) as { files?: unknown };
      const plain = (name: unknown) =>
        typeof name === 'string' && name === path.basename(name) && name !== '..' && name !== '.';
      if (Array.isArray(journal.files) && journal.files.every(plain)) names = journal.files as string[];
    } catch {
      names = undefined;
    }
    if (names) recovery.completed.push(...(await rollForward(directory, full, names)));
    else {
      await rm(full, { recursive: true, force: true });
      recovery.removed.push(entry.name);
    }
  }
  return recovery;
}
