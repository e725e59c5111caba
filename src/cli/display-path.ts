import path from 'node:path';

/** A file as listings show it: relative to the current folder (`assay ls`, `--tasks list`). */
export function displayPath(file: string): string {
  return path.relative(process.cwd(), file) || file;
}
