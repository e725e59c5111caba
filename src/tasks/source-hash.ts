/**
 * The content hash recorded in the manifest: sha256 over the task file, the files it includes and the
 * modules it imports, so that editing any of them changes the hash. Paths are left out on purpose:
 * moving a task folder does not change what the task does.
 */
import { createHash } from 'node:crypto';
import { fileDigest } from '../util/file-digest.js';

/** The files' content hash: each file's digest (util/file-digest.ts, cached), hashed in order. */
export async function hashFiles(files: readonly string[]): Promise<string> {
  const unique = [...new Set(files)];
  const fileDigests = await Promise.all(unique.map(fileDigest));
  const hash = createHash('sha256');
  // Each file's own digest, so the boundary between files cannot be shifted by their contents.
  for (const digest of fileDigests) hash.update(digest);
  return hash.digest('hex');
}

/**
 * A task's content sha256, what the manifest and the leaderboard record and `--expect_sha256` pins: its
 * config (the task file, its includes and imports) and every data file it read, local or Hub, by split
 * and content (paths are left out, as above). A task that read no data file (JSONL, docs in code) keeps
 * its config hash. Call it after the docs are loaded: before, the data files are not known.
 */
export function taskContentSha256(task: {
  source: { sha256: string };
  dataFiles?(): readonly { split: string; sha256: string }[];
}): string {
  const files = task.dataFiles?.() ?? [];
  if (files.length === 0) return task.source.sha256;
  // Splits in name order (the order they were read in depends on the run), files in reading order.
  const splits = [...new Set(files.map((file) => file.split))].sort();
  const data = splits.flatMap((split) =>
    files.filter((file) => file.split === split).map((file) => [split, file.sha256]),
  );
  return createHash('sha256')
    .update(JSON.stringify({ config: task.source.sha256, data }))
    .digest('hex');
}
