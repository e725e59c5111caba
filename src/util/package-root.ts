import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of assay's own package.json: where `tasks/`, `src/python/`, `src/sandbox/`, `dist/viewer/` and
 * `native/` live. A module's place inside the package differs by how it runs (src/ under tsx, dist/ as tsc
 * writes it, or a chunk of the bundled CLI in dist/bundle/), so paths into the package start here, not at a
 * module's own folder. Found once, by walking up from this file to the package.json named "assay".
 */
let root: string | undefined;

export function packageRoot(): string {
  if (root !== undefined) return root;
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let folder = start; ; folder = path.dirname(folder)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
        name?: unknown;
      };
      if (manifest.name === 'assay') {
        root = folder;
        return folder;
      }
    } catch {
      // No package.json here (or not JSON): keep walking up.
    }
    if (path.dirname(folder) === folder) throw new Error(`assay's package.json was not found above ${start}`);
  }
}

/** A path inside the package, from its root. */
export function packagePath(...segments: string[]): string {
  return path.join(packageRoot(), ...segments);
}
