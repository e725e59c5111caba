/**
 * `checkIntegrity` (lm-eval's --check_integrity): lm-eval runs its task test suite with pytest before the
 * evaluation (tests/test_version_stable.py, which its own tree no longer has). assay runs the checks of
 * `assay validate` on the run's task specs instead (config, includes, functions, templates, metric and
 * filter names, the evaluation split and doc 0's requests) and stops before any model is loaded if one
 * fails.
 */
import { AssayError } from '../errors.js';
import type { TaskLogger } from '../tasks/index.js';
import type { ResolvedRunOptions } from './run-options.js';

/** The run's options that say where its tasks come from (run-options.ts), and where warnings go. */
export type IntegrityOptions = Pick<
  ResolvedRunOptions,
  'tasks' | 'includePath' | 'indexCacheDir' | 'python'
> & {
  logger?: TaskLogger;
};

const SHOWN = 3;

export async function checkTaskIntegrity(options: IntegrityOptions): Promise<void> {
  // Tasks handed over already loaded have no spec to check again; they were checked as they loaded.
  const specs = options.tasks.filter((task): task is string => typeof task === 'string');
  if (specs.length === 0) return;
  // `assay validate`'s checks load only for a run that asks for them.
  const { validateTasks } = await import('./validate.js');
  const report = await validateTasks({
    tasks: specs,
    includePath: options.includePath,
    indexCacheDir: options.indexCacheDir,
    python: options.python,
    logger: options.logger,
    data: true,
  });
  const failed = report.records.filter((record) => !record.ok);
  if (failed.length === 0) return;
  const shown = failed
    .slice(0, SHOWN)
    .map((record) => `${record.kind} ${record.name}: ${record.error}`)
    .join('; ');
  throw new AssayError(
    'integrity_check_failed',
    `\`checkIntegrity\`: ${failed.length} of ${report.records.length} entries failed (${shown}${failed.length > SHOWN ? '; …' : ''}); run assay validate on them for every failure`,
  );
}
