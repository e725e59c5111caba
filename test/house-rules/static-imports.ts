/**
 * The modules a command loads before it does anything: the static import graph of src/ from an entry
 * file, the way Node evaluates it (every `import … from` and `export … from` is loaded with its importer;
 * a dynamic `import()` only when it runs). `import type` and `export type`, and an import whose named
 * bindings are all `type`-marked, are erased by tsc and not followed. An import tsc erases because its
 * bindings happen to be used only as types, without the `type` mark, is followed: the walk can only
 * reach more than Node does, never less, so a file it calls unreachable is unreachable.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the walk reached: source files (relative to the root, `/`-separated) and bare packages. */
export interface Reached {
  files: Set<string>;
  packages: Set<string>;
  /** file → the importer it was first reached from, to print the chain that reaches a forbidden file. */
  via: Map<string, string>;
}

const STATEMENT =
  /^[ \t]*(import|export)\s+(type\s+)?([^'";:=()]*?)\s*from\s*['"]([^'"]+)['"]|^[ \t]*import\s*['"]([^'"]+)['"]/gm;

/** The value imports of one TypeScript source: specifiers of statements that survive compilation. */
export function staticImports(source: string): string[] {
  const specifiers: string[] = [];
  for (const match of source.matchAll(STATEMENT)) {
    const [, , typeOnly, clause, from, bare] = match;
    if (bare !== undefined) {
      specifiers.push(bare);
      continue;
    }
    if (typeOnly) continue;
    const named = /^\{([\s\S]*)\}$/.exec(clause.trim());
    if (named) {
      const names = named[1]
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      // `import { type A, type B } from` is erased; `import {} from` is not.
      if (names.length > 0 && names.every((name) => name.startsWith('type '))) continue;
    }
    specifiers.push(from);
  }
  return specifiers;
}

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for `node:` built-ins. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Walks the static imports from `entries` (paths relative to `root`, e.g. `src/cli/main.ts`). */
export function reachableFrom(root: string, entries: string[]): Reached {
  const reached: Reached = { files: new Set(), packages: new Set(), via: new Map() };
  const queue = [...entries];
  for (const entry of entries) reached.files.add(entry);
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const specifier of staticImports(readFileSync(path.join(root, file), 'utf8'))) {
      if (!specifier.startsWith('.')) {
        const name = packageOf(specifier);
        if (name) reached.packages.add(name);
        continue;
      }
      const target = path.posix
        .join(path.posix.dirname(file), specifier)
        .replace(/\.js$/, '.ts')
        .replace(/\.mjs$/, '.mts');
      if (reached.files.has(target)) continue;
      reached.files.add(target);
      reached.via.set(target, file);
      queue.push(target);
    }
  }
  return reached;
}

/** `a.ts → b.ts → c.ts`: how the walk reached `file`. */
export function chainTo(reached: Reached, file: string): string {
  const chain = [file];
  for (let at = reached.via.get(file); at !== undefined; at = reached.via.get(at)) chain.unshift(at);
  return chain.join(' → ');
}
