import path from 'node:path';
import { AssayError } from '../errors.js';
import { buildTaskIndex } from '../tasks/index.js';
import { reportError, withFlagNames } from './errors.js';
import { taskSources } from './task-sources.js';

const KINDS = { tasks: 'task', groups: 'group', tags: 'tag' } as const;

function markdown(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `|${cells.map((cell, i) => cell.padEnd(widths[i])).join('|')}|`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w)).join('|')}|`, ...rows.map(line)].join('\n');
}

export async function lsCommand(what: string, flags: Record<string, unknown>): Promise<number> {
  try {
    if (!(what in KINDS)) {
      throw new AssayError('bad_option', `assay ls takes tasks, groups or tags, not "${what}"`);
    }
    const kind = KINDS[what as keyof typeof KINDS];
    const { includePath, indexCacheDir } = taskSources(flags);
    const warnings: string[] = [];
    const index = await buildTaskIndex({
      includePath,
      cacheDir: indexCacheDir,
      logger: { warn: (message) => warnings.push(message) },
    });
    const entries = [...index.entries.values()].filter((entry) => entry.kind === kind);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    const relative = (file: string | undefined) => (file ? path.relative(process.cwd(), file) || file : '');
    let out: string;
    if (kind === 'task') {
      out = markdown(
        ['Task', 'Config Location', 'Output Type'],
        entries.map((entry) => [
          entry.name,
          relative(entry.path),
          String(
            entry.outputType ??
              (entry.format === 'jsonl'
                ? 'generate_until'
                : entry.format === 'typescript'
                  ? '(typescript)'
                  : 'generate_until'),
          ),
        ]),
      );
    } else if (kind === 'group') {
      out = markdown(
        ['Group', 'Config Location'],
        entries.map((entry) => [entry.name, relative(entry.path)]),
      );
    } else {
      out = markdown(
        ['Tag', 'Tasks'],
        entries.map((entry) => [entry.name, (entry.tasks ?? []).join(', ')]),
      );
    }
    process.stdout.write(`${out}\n`);
    for (const warning of warnings) process.stderr.write(`assay: warning: ${withFlagNames(warning)}\n`);
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
