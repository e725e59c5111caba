import { AssayError } from '../errors.js';
import { type ValidationRecord, validateTasks } from '../evaluate/validate.js';
import type { EntryKind } from '../tasks/index.js';
import { VALIDATE_FLAGS } from './command-flags.js';
import { reportError, withFlagNames } from './errors.js';
import { parseFlags } from './option-table.js';
import { taskSources } from './task-sources.js';

const PLURAL: Record<EntryKind, string> = { task: 'tasks', group: 'groups', tag: 'tags' };

function okLine(record: ValidationRecord): string {
  if (record.docs === undefined) return `ok  ${record.name}\n`;
  return `ok  ${record.name}: ${record.docs} docs, ${record.outputType}, doc 0 → ${record.requests} request(s)\n`;
}

/**
 * `assay validate [--no_data] [--tasks …] [--include_path …] [--format text|json]`: every entry is
 * reported, then a count per kind. Exit 0 when all are valid, 1 when any failed, 2 on bad arguments.
 */
export async function validateCommand(raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(VALIDATE_FLAGS, raw);
    const { format } = flags;
    const data = flags.no_data !== true;
    const tasks = flags.tasks ?? [];
    const { includePath, indexCacheDir } = taskSources(raw);
    if (tasks.length === 0 && includePath.length === 0 && data) {
      throw new AssayError(
        'bad_option',
        'give --tasks, or --include_path to validate every task of a folder (with --no_data to skip the data)',
      );
    }
    const report = await validateTasks({
      tasks,
      includePath,
      indexCacheDir,
      data,
      python: flags.python,
      logger: { warn: (m) => process.stderr.write(`assay: warning: ${withFlagNames(m)}\n`) },
      onRecord:
        format === 'text'
          ? (record) => {
              if (record.ok) {
                if (data) process.stdout.write(okLine(record));
              } else {
                process.stdout.write(
                  `FAIL ${record.kind} ${record.name}: ${withFlagNames(record.error ?? '')}\n`,
                );
              }
            }
          : undefined,
    });
    const failed = report.records.filter((record) => !record.ok).length;
    if (format === 'json') {
      const records = report.records.map((record) =>
        record.error === undefined ? record : { ...record, error: withFlagNames(record.error) },
      );
      process.stdout.write(`${JSON.stringify(records, null, 1)}\n`);
    } else {
      for (const kind of ['task', 'group', 'tag'] as const) {
        const count = report.counts[kind];
        if (count.total === 0) continue;
        const share = ((100 * count.ok) / count.total).toFixed(1);
        process.stdout.write(
          `${PLURAL[kind]}: ${count.total}, ok ${count.ok} (${share}%), need Python only ${count.needsPython}, failed ${count.failed}\n`,
        );
      }
      const tasksOk = report.counts.task.ok;
      process.stdout.write(
        failed === 0
          ? `${tasksOk} task(s) valid\n`
          : `${failed} of ${report.records.length} entries failed\n`,
      );
    }
    return failed === 0 ? 0 : 1;
  } catch (error) {
    return reportError(error);
  }
}
