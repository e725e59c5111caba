import path from 'node:path';
import { expandIncludePath } from '../tasks/lm-eval-tree.js';
import { cacheDirectory } from '../util/cache-directory.js';

/** The Python interpreter assay asks about lm-eval: ASSAY_PYTHON, else python3. */
export function pythonInterpreter(): string {
  return process.env.ASSAY_PYTHON || 'python3';
}

/**
 * Where commands find tasks: `--include_path` (repeated or comma-separated; `lm_eval` names the
 * installed lm-eval's tree) and the folder of cached index scans.
 */
export function taskSources(flags: Record<string, unknown>): {
  includePath: string[];
  indexCacheDir: string;
} {
  const raw = flags.include_path;
  const items = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw])
    .map(String)
    .flatMap((dir) => dir.split(','))
    .map((dir) => dir.trim())
    .filter(Boolean);
  return {
    includePath: expandIncludePath(items, pythonInterpreter()),
    indexCacheDir: indexCacheDirectory(),
  };
}

/** `<assay cache>/task-index`: one cached scan per large task folder. */
export function indexCacheDirectory(): string {
  return path.join(cacheDirectory(), 'task-index');
}
