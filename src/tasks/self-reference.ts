/**
 * Lets task modules anywhere on disk `import { defineTask } from 'assay'`, even where assay is not
 * installed in their project (a task folder in /tmp, a checkout of someone's tasks). Bare `assay`
 * resolves to this package's built entry, for both CommonJS (tsx compiles a .ts outside an ESM package
 * to CommonJS) and ESM task modules.
 */
import { existsSync } from 'node:fs';
import Module, { register } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

let installed = false;

export function installSelfReference(): void {
  if (installed) return;
  installed = true;
  const entry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
  if (!existsSync(entry)) return;
  const moduleWithResolver = Module as unknown as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string;
  };
  const original = moduleWithResolver._resolveFilename;
  moduleWithResolver._resolveFilename = function resolveAssay(
    this: unknown,
    request: string,
    ...rest: unknown[]
  ) {
    if (request === 'assay') return entry;
    return original.call(this, request, ...rest);
  };
  const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === 'assay') return { url: ${JSON.stringify(pathToFileURL(entry).href)}, shortCircuit: true };
  return next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
