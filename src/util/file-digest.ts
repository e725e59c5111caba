/**
 * A file's sha256, kept while its size and mtime are unchanged: the tasks of a family share their
 * templates, and validating a whole tree hashes the same few files thousands of times. One cache for the
 * task files (tasks/source-hash.ts) and the local data files a task reads (data/local-dataset.ts). A file
 * modified in the last seconds is not kept: file times are coarse (a few ms), so a second edit of the same
 * size could keep the same mtime (git's "racily clean" problem).
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** How old a file's mtime must be before a digest of it (or a scan that read it) is kept. */
export const SETTLED_MS = 2000;
const digests = new Map<string, { size: number; mtimeMs: number; digest: Buffer }>();

/** A file's sha256 digest (raw bytes). */
export async function fileDigest(file: string): Promise<Buffer> {
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

/** A file's sha256 in hex. */
export async function fileSha256(file: string): Promise<string> {
  return (await fileDigest(file)).toString('hex');
}
