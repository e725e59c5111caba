import os from 'node:os';
import path from 'node:path';

/** assay's cache folder: $ASSAY_CACHE_DIR, else $XDG_CACHE_HOME/assay, else ~/.cache/assay. */
export function cacheDirectory(): string {
  if (process.env.ASSAY_CACHE_DIR) return process.env.ASSAY_CACHE_DIR;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'assay');
}

/** `<assay cache>/task-index`: one cached scan per large task folder, and the kept listings. */
export function indexCacheDirectory(): string {
  return path.join(cacheDirectory(), 'task-index');
}
