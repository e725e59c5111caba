/**
 * The content hash recorded in the manifest: sha256 over the task file, the files it includes and the
 * modules it imports, so that editing any of them changes the hash. Paths are left out on purpose:
 * moving a task folder does not change what the task does.
 */
import { createHash } from 'node:crypto';
import { pythonModulesOf } from '../python/module-digests.js';
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
 * config (the task file, its includes and imports), the Python modules its `utils.py` imports (a helper
 * beside it: python/module-digests.ts) and every data file it read, local or Hub, by split and content
 * (paths are left out, as above). A task that read no data file (JSONL, docs in code) and imports no
 * such module keeps its config hash. Call it after the docs are loaded and the Python functions bound:
 * before, the data files and modules are not known.
 */
export function taskContentSha256(task: {
  source: { sha256: string };
  config?: unknown;
  dataFiles?(): readonly { split: string; sha256: string }[];
}): string {
  const files = task.dataFiles?.() ?? [];
  const modules = pythonModulesOf(task.config, { imported: true }).map((module) => module.sha256);
  if (files.length === 0 && modules.length === 0) return task.source.sha256;
  // Splits in name order (the order they were read in depends on the run), files in reading order.
  const splits = [...new Set(files.map((file) => file.split))].sort();
  const data = splits.flatMap((split) =>
    files.filter((file) => file.split === split).map((file) => [split, file.sha256]),
  );
  // Modules by content alone, sorted: moving the folder changes nothing.
  const content = modules.length
    ? { config: task.source.sha256, data, python: modules.sort() }
    : { config: task.source.sha256, data };
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
