/**
 * What says a file (or folder) is unchanged without reading it, for the caches that trust a file they
 * read before (the task index's scans, the override comparisons, the kept listings): its size and mtime,
 * and its inode's number and change time. Size and mtime alone miss an edit of the same size whose mtime
 * was put back (`touch -d`, `cp -p`, `rsync -t`, a tar or npm package, which stamps every file
 * 1985-10-26), and a symlinked folder pointed at a copy of the same names, sizes and mtimes. The ctime
 * cannot be set back (every write, rename or touch sets it to now), and a copy is another inode.
 */
import { type Stats, statSync } from 'node:fs';

export type FileStamp = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

export function stampOf(stats: Stats): FileStamp {
  return [stats.size, stats.mtimeMs, stats.ctimeMs, stats.ino];
}

/**
 * The stamp of a file that is not there (an include not found): it holds until the file is created, so a
 * cache that read nothing there is not trusted once something is.
 */
export const ABSENT: Readonly<FileStamp> = Object.freeze([-1, 0, 0, 0]);

/** A file's stamp now; undefined when it is gone. */
export function fileStamp(file: string): FileStamp | undefined {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? stampOf(stats) : undefined;
}

/** Whether a file has the stamp it had (a warm command asks this of ~15,000 files). */
export function sameStamp(file: string, stamp: Readonly<FileStamp>): boolean {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (stats === undefined) return stamp[0] === ABSENT[0];
  return (
    stats.size === stamp[0] &&
    stats.mtimeMs === stamp[1] &&
    stats.ctimeMs === stamp[2] &&
    stats.ino === stamp[3]
  );
}
