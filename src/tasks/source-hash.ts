/**
 * The content hash recorded in the manifest: sha256 over the task file, the files it includes and the
 * modules it imports, so that editing any of them changes the hash. Paths are left out on purpose:
 * moving a task folder does not change what the task does.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export async function hashFiles(files: readonly string[]): Promise<string> {
  const unique = [...new Set(files)];
  const contents = await Promise.all(unique.map((file) => readFile(file)));
  const hash = createHash('sha256');
  for (const content of contents) {
    // Each file's own digest, so the boundary between files cannot be shifted by their contents.
    hash.update(createHash('sha256').update(content).digest());
  }
  return hash.digest('hex');
}
