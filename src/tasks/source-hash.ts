/**
 * The content hash recorded in the manifest: sha256 over the task file, the files it includes and the
 * modules it imports, so that editing any of them changes the hash. Paths are left out on purpose:
 * moving a task folder does not change what the task does.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * Each file's digest, kept while its size and mtime are unchanged: the tasks of a family share their
 * templates, and validating a whole tree hashes the same few files thousands of times. A file modified
 * in the last seconds is not kept: file times are coarse (a few ms), so a second edit of the same size
 * could keep the same mtime (git's "racily clean" problem).
 */
export const SETTLED_MS = 2000;
const digests = new Map<string, { size: number; mtimeMs: number; digest: Buffer }>();

async function fileDigest(file: string): Promise<Buffer> {
  const stats = statSync(file, { throwIfNoEntry: false });
  const known = digests.get(file);
  if (stats && known && known.size === stats.size && known.mtimeMs === stats.mtimeMs) return known.digest;
  const digest = createHash('sha256')
    .update(await readFile(file))
    .digest();
  if (stats && stats.mtimeMs < Date.now() - SETTLED_MS) {
    digests.set(file, { size: stats.size, mtimeMs: stats.mtimeMs, digest });
  }
  return digest;
}

export async function hashFiles(files: readonly string[]): Promise<string> {
  const unique = [...new Set(files)];
  const fileDigests = await Promise.all(unique.map(fileDigest));
  const hash = createHash('sha256');
  // Each file's own digest, so the boundary between files cannot be shifted by their contents.
  for (const digest of fileDigests) hash.update(digest);
  return hash.digest('hex');
}
