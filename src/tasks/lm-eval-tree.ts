/**
 * `--include_path lm_eval`: lm-eval users name its installed task tree by the package name. When no
 * folder of that name exists, the Python interpreter (ASSAY_PYTHON, else python3) is asked where the
 * `lm_eval` package is, and its `tasks/` folder is used: `assay run --tasks hellaswag --include_path
 * lm_eval` then runs lm-eval's own YAML.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { AssayError } from '../errors.js';

export const LM_EVAL_PACKAGE = 'lm_eval';

function isDirectory(dir: string): boolean {
  return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The `tasks/` folder of the `lm_eval` package `python` imports, or the reason it has none. */
export function lmEvalTaskFolder(python: string): { folder: string } | { reason: string } {
  const result = spawnSync(python, ['-c', 'import lm_eval, os; print(os.path.dirname(lm_eval.__file__))'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.error) return { reason: `${python} could not be run (${result.error.message})` };
  if (result.status !== 0) {
    const last = result.stderr.trim().split('\n').pop() ?? '';
    return { reason: `${python} cannot import lm_eval${last ? ` (${last})` : ''}` };
  }
  const folder = path.join(result.stdout.trim(), 'tasks');
  if (!isDirectory(folder))
    return { reason: `the lm_eval package at ${result.stdout.trim()} has no tasks/ folder` };
  return { folder };
}

/**
 * Include paths with `lm_eval` (when no such folder exists) replaced by the installed package's task
 * folder. Fails with the reason when the package cannot be found, rather than indexing nothing.
 */
export function expandIncludePath(includePath: readonly string[], python: string): string[] {
  return includePath.map((dir) => {
    if (dir !== LM_EVAL_PACKAGE || isDirectory(dir)) return dir;
    const found = lmEvalTaskFolder(python);
    if ('folder' in found) return found.folder;
    throw new AssayError(
      'not_found',
      `\`includePath\` lm_eval: there is no folder lm_eval here, and ${found.reason}; install lm-eval for that interpreter or set ASSAY_PYTHON to one that has it`,
    );
  });
}
