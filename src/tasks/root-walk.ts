/**
 * Walking a task root: its candidate files (YAML, JSONL, `*.task.ts`), sorted, and the folders walked.
 * Shared by the index, which walks a root to check or write its cached scan, and the scan itself.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { stampOf } from '../util/file-stamp.js';
import { type Fingerprint, fingerprintOf, type Listing } from './index-cache.js';
import type { IndexRoot } from './index-types.js';

const IGNORED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.ipynb_checkpoints']);
/** TypeScript task modules are named `<task>.task.ts` so the index can tell them from helpers like utils.ts. */
export const MODULE_TASK = /\.task\.(ts|mts|js|mjs)$/;
const CANDIDATE = /\.(ya?ml|jsonl)$/;

/** A YAML candidate: the files whose text a scan reads (a JSONL file's first line is read by its own check). */
export function isYamlFile(file: string): boolean {
  return /\.ya?ml$/.test(file);
}

/** The candidate files of a root, sorted by path (as lm-eval sorts by posix path: decides duplicates). */
export function listRoot(root: IndexRoot): string[] {
  return walkRoot(root).files;
}

/**
 * The candidate files of a root (sorted), and every folder walked; with `stamps`, each folder's size
 * stamp (util/file-stamp.ts) taken just before it is read.
 */
export function walkRoot(root: IndexRoot, stamps?: Fingerprint[]): Listing {
  const files: string[] = [];
  const dirs: string[] = [];
  // Paths are joined by hand: the folder is already absolute and normal, and path.join would
  // re-normalise each of thousands of names.
  const walk = (dir: string): void => {
    let entries: import('node:fs').Dirent[];
    const stats = stamps ? statSync(dir, { throwIfNoEntry: false }) : undefined;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw error;
    }
    dirs.push(dir);
    if (stamps && stats) stamps.push(fingerprintOf(dir, stampOf(stats)));
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    // Indexed: a cold command walks thousands of entries in V8's interpreter (no iterator protocol).
    for (let at = 0; at < entries.length; at++) {
      const entry = entries[at];
      const full = prefix + entry.name;
      if (entry.isDirectory()) {
        if (root.recursive !== false && !IGNORED_DIRS.has(entry.name)) walk(full);
      } else if (CANDIDATE.test(entry.name) || MODULE_TASK.test(entry.name)) {
        files.push(full);
      }
    }
  };
  walk(path.resolve(root.dir));
  return { files: files.sort(), dirs };
}
