import { checkIncludePath } from '../tasks/include-path.js';
import { expandIncludePath } from '../tasks/lm-eval-tree.js';
import { indexCacheDirectory } from '../util/cache-directory.js';

export { indexCacheDirectory } from '../util/cache-directory.js';

/** The Python interpreter assay asks about lm-eval: --python, else ASSAY_PYTHON, else python3. */
export function pythonInterpreter(flags: Record<string, unknown> = {}): string {
  return typeof flags.python === 'string' && flags.python
    ? flags.python
    : process.env.ASSAY_PYTHON || 'python3';
}

/**
 * Where commands find tasks: `--include_path` (repeated or comma-separated; `lm_eval` names the
 * installed lm-eval's tree, `askedPython` then) and the folder of cached index scans. Each folder must
 * exist.
 */
export function taskSources(flags: Record<string, unknown>): {
  includePath: string[];
  indexCacheDir: string;
  askedPython: boolean;
} {
  const raw = flags.include_path;
  const items = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw])
    .map(String)
    .flatMap((dir) => dir.split(','))
    .map((dir) => dir.trim())
    .filter(Boolean);
  const includePath = expandIncludePath(items, pythonInterpreter(flags));
  checkIncludePath(includePath);
  return {
    includePath,
    indexCacheDir: indexCacheDirectory(),
    askedPython: includePath.some((dir, index) => dir !== items[index]),
  };
}
