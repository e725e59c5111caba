/**
 * The Python modules a task's code is made of: each `!function` module and the task-code modules it
 * imports (the worker's task_modules.py: a helper beside utils.py, a module of a sibling task folder;
 * not the interpreter's own library), as the worker found them when the functions were bound. A task's
 * content hash covers them, so editing a helper changes it as editing utils.py does.
 */
import { fileSha256 } from '../util/file-digest.js';
import { collectPythonRefs, type ModuleDigest } from './python-ref.js';

/** Each file's sha256, in the order given. */
export function moduleDigests(paths: readonly string[]): Promise<ModuleDigest[]> {
  return Promise.all(paths.map(async (path) => ({ path, sha256: await fileSha256(path) })));
}

/**
 * Every module of the bound Python functions in a task's config, each once, by path. `imported` keeps
 * only those no `!function` names itself (the config hash already covers those).
 */
export function pythonModulesOf(config: unknown, options: { imported?: boolean } = {}): ModuleDigest[] {
  const refs = collectPythonRefs(config);
  const named = new Set(
    options.imported ? refs.flatMap((ref) => [ref.module, ...(ref.registeredFilter?.modules ?? [])]) : [],
  );
  const byPath = new Map<string, ModuleDigest>();
  for (const ref of refs)
    for (const module of ref.binding?.modules ?? [])
      if (!named.has(module.path)) byPath.set(module.path, module);
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
