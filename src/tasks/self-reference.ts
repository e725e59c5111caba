/**
 * Lets task modules anywhere on disk `import { defineTask } from 'assay'` (and the other entries of the
 * package, `assay/stats` and the rest), even where assay is not installed in their project (a task folder
 * in /tmp, a checkout of someone's tasks). Each specifier resolves to this package's built entry, as
 * package.json `exports` names it, for both CommonJS (tsx compiles a .ts outside an ESM package to
 * CommonJS) and ESM task modules.
 */
import { existsSync, readFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot } from '../util/package-root.js';

let installed = false;

/** Specifier (`assay`, `assay/stats`, …) → the built file it resolves to, for the entries that are built. */
function builtEntries(): Map<string, string> {
  const root = pathToFileURL(packageRoot() + path.sep);
  const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
    exports: Record<string, { default: string }>;
  };
  const entries = new Map<string, string>();
  for (const [subpath, entry] of Object.entries(manifest.exports)) {
    const file = fileURLToPath(new URL(entry.default, root));
    if (existsSync(file)) entries.set(subpath === '.' ? 'assay' : `assay/${subpath.slice(2)}`, file);
  }
  return entries;
}

export function installSelfReference(): void {
  if (installed) return;
  installed = true;
  const entries = builtEntries();
  if (entries.size === 0) return;
  const moduleWithResolver = Module as unknown as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string;
  };
  const original = moduleWithResolver._resolveFilename;
  moduleWithResolver._resolveFilename = function resolveAssay(
    this: unknown,
    request: string,
    ...rest: unknown[]
  ) {
    return entries.get(request) ?? original.call(this, request, ...rest);
  };
  const urls = Object.fromEntries(
    [...entries].map(([specifier, file]) => [specifier, pathToFileURL(file).href]),
  );
  const hooks = `const urls = ${JSON.stringify(urls)};
export async function resolve(specifier, context, next) {
  if (Object.hasOwn(urls, specifier)) return { url: urls[specifier], shortCircuit: true };
  return next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
