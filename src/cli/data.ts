import { hubCacheDir } from '../data/hub/cache.js';
import { isOffline } from '../data/hub/dataset.js';
import { prefetchTasks } from '../data/hub/prefetch.js';
import { AssayError } from '../errors.js';
import { withListener } from '../events.js';
import { resolveTasks } from '../tasks/manager.js';
import { leafTasks } from '../tasks/task.js';
import { DATA_FETCH_FLAGS } from './command-flags.js';
import { reportError, withFlagNames } from './errors.js';
import { parseFlags } from './option-table.js';
import { type ConsoleProgress, progressListener } from './progress.js';
import { taskSources } from './task-sources.js';

/** `assay data fetch --tasks a,b`: fills the Hub cache with every split those tasks name. */
export async function dataFetchCommand(flags: Record<string, unknown>): Promise<number> {
  let progress: ConsoleProgress | undefined;
  try {
    const specs = (flags.tasks as string[]).flatMap((spec) => spec.split(',')).filter(Boolean);
    const { includePath, indexCacheDir } = taskSources(flags);
    if (isOffline()) {
      throw new AssayError(
        'bad_environment',
        'assay data fetch downloads data; unset HF_HUB_OFFLINE to run it',
      );
    }
    const nodes = await resolveTasks(specs, {
      includePath,
      indexCacheDir,
      logger: { warn: (message) => process.stderr.write(`assay: warning: ${withFlagNames(message)}\n`) },
    });
    const tasks = nodes.flatMap(leafTasks);
    let bytes = 0;
    let files = 0;
    const { quiet } = parseFlags(DATA_FETCH_FLAGS, flags);
    progress = progressListener(process.stderr, { progress: quiet !== true, warnings: true });
    const fetched = await withListener(progress, () =>
      prefetchTasks(tasks, {
        onSplit: ({ task, source }) => {
          const size = source.files.reduce((sum, file) => sum + file.size, 0);
          bytes += size;
          files += source.files.length;
          process.stdout.write(
            `${task}: ${source.dataset} ${source.config}/${source.split} @ ${source.commit.slice(0, 12)} ` +
              `(${source.files.length} file${source.files.length === 1 ? '' : 's'}, ${size} bytes)\n`,
          );
        },
      }),
    );
    progress.stop();
    const local = tasks.length - new Set(fetched.map((entry) => entry.task)).size;
    process.stdout.write(
      `${fetched.length} split(s), ${files} file(s), ${bytes} bytes in ${hubCacheDir()}` +
        (local ? `; ${local} task(s) use local data and need no fetch` : '') +
        '\n',
    );
    return 0;
  } catch (error) {
    progress?.stop();
    return reportError(error);
  }
}
