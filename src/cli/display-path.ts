import path from 'node:path';
import { relativeNormal } from '../util/normal-paths.js';

// Listings show thousands of files from a few hundred folders: each folder's relative form is computed
// once, by segments when both paths are normal (util/normal-paths.ts; path.relative resolves both sides
// character by character on every call). null: a folder path the shortcut does not
// cover (not normalized). Reset when the current folder changes.
let cachedCwd: string | undefined;
const relativeFolders = new Map<string, string | null>();

/** A file as listings show it: relative to the current folder (`assay ls`, `--tasks list`). */
export function displayPath(file: string): string {
  const cwd = process.cwd();
  const slash = file.lastIndexOf(path.sep);
  const base = file.slice(slash + 1);
  // folder/base's relative form is the folder's plus base for a named file in a normalized folder,
  // unless the file is the current folder or one of its ancestors.
  if (
    slash <= 0 ||
    base === '' ||
    base === '.' ||
    base === '..' ||
    !path.isAbsolute(file) ||
    cwd === file ||
    (cwd.startsWith(file) && cwd[file.length] === path.sep)
  )
    return path.relative(cwd, file) || file;
  if (cwd !== cachedCwd) {
    cachedCwd = cwd;
    relativeFolders.clear();
  }
  const folder = file.slice(0, slash);
  let relative = relativeFolders.get(folder);
  if (relative === undefined) {
    relative =
      relativeNormal(cwd, folder) ?? (path.normalize(folder) === folder ? path.relative(cwd, folder) : null);
    relativeFolders.set(folder, relative);
  }
  if (relative === null) return path.relative(cwd, file) || file;
  return relative === '' ? base : `${relative}${path.sep}${base}`;
}
