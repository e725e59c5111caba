/**
 * Resolves `!function module.name` to a function exported by a `.ts`/`.mts`/`.js`/`.mjs` module beside
 * the YAML (the TypeScript counterpart of lm-eval's `utils.py`), else to lm-eval's own `module.py`, which
 * runs in the Python worker (src/python/). TypeScript modules are imported once per process; Python
 * modules are not imported here but when a run binds them (PythonRuntime.bind).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AssayError, type ErrorLocation } from '../errors.js';
import { createPythonRef } from '../python/python-ref.js';
import type { FunctionRef } from '../task-config/function-ref.js';
import { DeferredFunction, locateFunctionTag } from './yaml-loader.js';

/** A module's exports, and the local files it loaded (for the task's content hash). */
export interface ImportedModule {
  exports: Record<string, unknown>;
  files: string[];
}

const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
const modules = new Map<string, Promise<ImportedModule>>();

/** Imports a task module (once per process). tsx compiles TypeScript on the fly: no build step. */
export function importModule(file: string): Promise<ImportedModule> {
  let loading = modules.get(file);
  if (!loading) {
    loading = (async () => {
      // Loaded here, not at start-up: tsx and esbuild cost ~100 ms to load, and most runs import no module.
      (await import('./self-reference.js')).installSelfReference();
      const { tsImport } = await import('tsx/esm/api');
      const exports = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
      return { exports, files: localImports(file) };
    })();
    modules.set(file, loading);
    loading.catch(() => modules.delete(file));
  }
  return loading;
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * The module and the local files it imports, transitively, for the task's content hash. tsx's
 * `onImport` hook reports only the entry module, so relative specifiers are read from the source; a
 * computed `import()` is missed, which only weakens the hash, never the task.
 */
function localImports(entry: string): string[] {
  const found = new Set<string>();
  const visit = (file: string): void => {
    if (found.has(file)) return;
    found.add(file);
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    for (const match of source.matchAll(RELATIVE_IMPORT)) {
      const target = resolveLocal(path.resolve(path.dirname(file), match[1]));
      if (target) visit(target);
    }
  };
  visit(entry);
  return [...found].sort();
}

/** TypeScript's resolution for `./x.js` → x.ts, `./x` → x.ts / x/index.ts, and so on. */
function resolveLocal(base: string): string | undefined {
  const stem = base.replace(/\.(js|mjs|cjs|ts|mts)$/, '');
  const candidates = [
    base,
    ...MODULE_EXTENSIONS.map((extension) => stem + extension),
    path.join(base, 'index.ts'),
    path.join(base, 'index.js'),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** `utils.fn` → [module path without extension, export name], split at the last dot as lm-eval does. */
function splitRef(ref: string): [string, string] | undefined {
  const dot = ref.lastIndexOf('.');
  if (dot <= 0 || dot === ref.length - 1) return undefined;
  return [ref.slice(0, dot), ref.slice(dot + 1)];
}

/**
 * lm-eval falls back to a plain import for a module not beside the YAML: in its own tree that is
 * `lm_eval.tasks.<folder>.<module>`, found here in the tree the YAML sits in.
 */
function inTaskTree(yamlFile: string, modulePath: string): string | undefined {
  const marker = `${path.sep}lm_eval${path.sep}tasks${path.sep}`;
  const at = yamlFile.indexOf(marker);
  if (at < 0 || !modulePath.startsWith('lm_eval.tasks.')) return undefined;
  const root = yamlFile.slice(0, at + marker.length);
  return path.join(root, `${modulePath.slice('lm_eval.tasks.'.length).replaceAll('.', path.sep)}.py`);
}

export async function resolveFunction(
  deferred: DeferredFunction,
  keyPath: readonly (string | number)[] = [],
): Promise<{ ref: FunctionRef; files: string[] }> {
  const { ref, yamlFile } = deferred;
  const location = (): Promise<ErrorLocation> => locateFunctionTag(yamlFile, ref);
  const parts = splitRef(ref);
  if (!parts) {
    throw new AssayError(
      'function_not_found',
      `!function ${ref}: expected module.function, e.g. utils.process_docs`,
      {
        location: await location(),
      },
    );
  }
  const [modulePath, exportName] = parts;
  const base = path.resolve(path.dirname(yamlFile), modulePath.replaceAll('.', '/'));
  const file = MODULE_EXTENSIONS.map((extension) => base + extension).find((candidate) =>
    existsSync(candidate),
  );
  if (!file) {
    const python = [`${base}.py`, inTaskTree(yamlFile, modulePath)].find(
      (candidate): candidate is string => candidate !== undefined && existsSync(candidate),
    );
    if (python) {
      return { ref: createPythonRef(ref, python, exportName, yamlFile, keyPath, location), files: [python] };
    }
    const tried = [...MODULE_EXTENSIONS, '.py']
      .map((extension) => path.basename(base) + extension)
      .join(', ');
    const key = keyPath.length ? `${keyPath.join('.')}: ` : '';
    throw new AssayError(
      'function_not_found',
      `${key}!function ${ref}: none of ${tried} exists in ${path.dirname(base)}`,
      { location: await location() },
    );
  }
  let imported: ImportedModule;
  try {
    imported = await importModule(file);
  } catch (error) {
    throw new AssayError(
      'function_not_found',
      `!function ${ref}: importing ${file} failed: ${String(error)}`,
      {
        location: await location(),
        cause: error,
      },
    );
  }
  // A module tsx loaded as CommonJS may expose its exports only under `default`.
  const nested = imported.exports.default as Record<string, unknown> | undefined;
  const fn =
    imported.exports[exportName] ??
    (nested !== null && typeof nested === 'object' ? nested[exportName] : undefined);
  if (typeof fn !== 'function') {
    const exported = Object.keys(imported.exports).filter(
      (key) => typeof imported.exports[key] === 'function',
    );
    throw new AssayError(
      'function_not_found',
      `!function ${ref}: ${path.basename(file)} has no exported function "${exportName}"` +
        (exported.length ? ` (it exports: ${exported.join(', ')})` : ''),
      { location: await location() },
    );
  }
  return { ref: { kind: 'function', ref, file, fn: fn as FunctionRef['fn'] }, files: imported.files };
}

export function isFunctionRef(value: unknown): value is FunctionRef {
  return (
    value !== null &&
    typeof value === 'object' &&
    (value as FunctionRef).kind === 'function' &&
    typeof (value as FunctionRef).fn === 'function'
  );
}

/**
 * Replaces every DeferredFunction in a config tree with its FunctionRef, importing modules in
 * parallel. Returns the new tree and the module files it imported.
 */
export async function resolveFunctions<T>(
  value: T,
  rootPath: (string | number)[] = [],
): Promise<{ value: T; files: string[] }> {
  const files = new Set<string>();
  const pending: Promise<void>[] = [];
  const walk = (node: unknown, assign: (resolved: unknown) => void, keyPath: (string | number)[]): void => {
    if (node instanceof DeferredFunction) {
      pending.push(
        resolveFunction(node, keyPath).then(({ ref, files: moduleFiles }) => {
          assign(ref);
          for (const file of moduleFiles) files.add(file);
        }),
      );
    } else if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) {
        walk(
          item,
          (resolved) => {
            node[index] = resolved;
          },
          [...keyPath, index],
        );
      }
    } else if (node !== null && typeof node === 'object' && !isFunctionRef(node)) {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record))
        walk(record[key], (resolved) => (record[key] = resolved), [...keyPath, key]);
    }
  };
  const root = { value };
  walk(value, (resolved) => (root.value = resolved as T), rootPath);
  await Promise.all(pending);
  return { value: root.value, files: [...files].sort() };
}
