import { AssayError } from '../errors.js';
import { buildTaskIndex, type TaskOverride } from '../tasks/index.js';
import { LS_FLAGS } from './command-flags.js';
import { displayPath } from './display-path.js';
import { reportError, withFlagNames } from './errors.js';
import { tuneCompilerForListing } from './listing-compiler.js';
import { emitListing, type ListingOutput } from './listing-replay.js';
import { markdownTable } from './markdown-table.js';
import { parseFlags } from './option-table.js';
import { taskSources } from './task-sources.js';

const KINDS = { tasks: 'task', groups: 'group', tags: 'tag' } as const;

/**
 * `assay ls tasks --overrides`: every task and group a later folder defines again, which definition is
 * used, which it replaces, and whether their configs differ (those first).
 */
function overridesTable(overrides: readonly TaskOverride[]): string {
  if (overrides.length === 0) return 'no task or group is defined in more than one folder';
  const rows = [...overrides]
    .sort((a, b) => Number(a.sameConfig) - Number(b.sameConfig) || a.name.localeCompare(b.name))
    .map((override) => [
      override.name,
      override.kind,
      displayPath(override.path),
      `${displayPath(override.replaced)}${override.builtin ? ' (built-in)' : ''}`,
      override.sameConfig
        ? 'same'
        : `differs${override.differingKeys.length ? `: ${override.differingKeys.join(', ')}` : ''}`,
    ]);
  return markdownTable(['Name', 'Kind', 'Config Location (used)', 'Replaces', 'Config'], rows);
}

/** `args`: the command line as parsed, under which the listing is kept (listing-replay.ts). */
export async function lsCommand(
  what: string,
  flags: Record<string, unknown>,
  args?: readonly string[],
): Promise<number> {
  try {
    if (!(what in KINDS)) {
      throw new AssayError('bad_option', `assay ls takes tasks, groups or tags, not "${what}"`);
    }
    const kind = KINDS[what as keyof typeof KINDS];
    const listOverrides = parseFlags(LS_FLAGS, flags).overrides === true;
    const { includePath, indexCacheDir, askedPython } = taskSources(flags);
    const warnings: string[] = [];
    tuneCompilerForListing();
    const index = await buildTaskIndex({
      includePath,
      cacheDir: indexCacheDir,
      logger: { warn: (message) => warnings.push(message) },
      summarizeOverrides: !listOverrides,
    });
    const entries = [...index.entries.values()].filter((entry) => entry.kind === kind);
    // A collator made once orders as localeCompare() does (both are the default locale's collation),
    // at a fifth of the cost over lm-eval's 14,569 names.
    const byName = new Intl.Collator().compare;
    entries.sort((a, b) => byName(a.name, b.name));
    const relative = (file: string | undefined) => (file ? displayPath(file) : '');
    let out: string;
    if (listOverrides) {
      out = overridesTable(index.overrides ?? []);
    } else if (kind === 'task') {
      out = markdownTable(
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
      out = markdownTable(
        ['Group', 'Config Location'],
        entries.map((entry) => [entry.name, relative(entry.path)]),
      );
    } else {
      out = markdownTable(
        ['Tag', 'Tasks'],
        entries.map((entry) => [entry.name, (entry.tasks ?? []).join(', ')]),
      );
    }
    // Two writes: `${out}\n` would copy the 3.7 MB listing of lm-eval's tree once more before encoding it.
    // The warnings first, as they arose (and as `run --tasks list` writes them): written after, they land
    // inside the table when both streams go to one pipe, whose large write Node finishes later.
    const output: ListingOutput = {
      writes: [
        ...warnings.map((warning): [2, string] => [2, `assay: warning: ${withFlagNames(warning)}\n`]),
        [1, out],
        [1, '\n'],
      ],
      exitCode: 0,
    };
    return emitListing(args, output, {
      sources: askedPython ? undefined : index.sources,
      cacheDir: indexCacheDir,
    });
  } catch (error) {
    return reportError(error);
  }
}
