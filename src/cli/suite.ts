/**
 * `assay suite validate|run|summarize|diff`: thin commands over src/suite/. Flags come from their option
 * tables (command-flags.ts); errors go through the one reporter (errors.ts).
 */
import { AssayError } from '../errors.js';
import { diffSuites } from '../suite/diff/diff-suites.js';
import { renderSuiteDiff } from '../suite/diff/diff-text.js';
import { runSuite } from '../suite/run-suite.js';
import { type MergedCell, mergeSuite } from '../suite/shard-suite.js';
import { summarizeSuite } from '../suite/summarize/summarize-suite.js';
import { validateSuite } from '../suite/validate-suite.js';
import {
  SUITE_DIFF_FLAGS,
  SUITE_MERGE_FLAGS,
  SUITE_RUN_FLAGS,
  SUITE_SUMMARIZE_FLAGS,
  SUITE_VALIDATE_FLAGS,
} from './command-flags.js';
import { reportError, withFlagNames } from './errors.js';
import { parseFlags } from './option-table.js';
import { type ConsoleProgress, progressListener } from './progress.js';
import { suiteProgressLine } from './suite-progress.js';
import { indexCacheDirectory } from './task-sources.js';

const warn = (message: string) => process.stderr.write(`assay: warning: ${withFlagNames(message)}\n`);

/** `assay suite validate SUITE.yaml`: every check but running; exit 0 valid, 2 with the first problem. */
export async function suiteValidateCommand(file: string, raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(SUITE_VALIDATE_FLAGS, raw);
    const validated = await validateSuite(file, { indexCacheDir: indexCacheDirectory(), logger: { warn } });
    const { suite } = validated.loaded;
    if (flags.format === 'json') {
      process.stdout.write(
        `${JSON.stringify(
          {
            version: suite.version,
            sha256: validated.loaded.sha256,
            cells: validated.cells.map((cell) => ({
              model: cell.model,
              task_set: cell.taskSet,
              settings_hash: cell.settingsHash,
            })),
            task_sets: Object.fromEntries(validated.taskSets),
            groups: Object.fromEntries(validated.groups),
          },
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    const lines = [
      `ok  suite ${file} (version ${suite.version}): ${suite.models.length} models × ${validated.taskSets.size} task sets = ${validated.cells.length} cells`,
      ...suite.models.map((model) => `ok  model ${model.name}: ${model.model}, model args checked`),
      ...[...validated.taskSets].map(([name, leaves]) => `ok  task set ${name}: ${leaves.join(', ')}`),
      ...[...validated.groups].map(([name, leaves]) => `ok  group ${name}: ${leaves.join(', ')}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    return reportError(error);
  }
}

/** `assay suite run SUITE.yaml --suite NAME`: exit 0 when every cell ran or was skipped, 1 when any failed. */
export async function suiteRunCommand(file: string, raw: Record<string, unknown>): Promise<number> {
  let progress: ConsoleProgress | undefined;
  try {
    const flags = parseFlags(SUITE_RUN_FLAGS, raw);
    if (!flags.suite) throw new AssayError('bad_option', '--suite NAME is required');
    const quiet = flags.quiet === true;
    const drawn = progressListener(process.stderr, { progress: !quiet, warnings: true });
    progress = drawn;
    const state = { seconds: [] as number[] };
    const result = await runSuite({
      suiteFile: file,
      suiteName: flags.suite,
      suitesDirectory: flags.suites_dir,
      modelsToRun: flags.models_to_run,
      tasksToRun: flags.tasks_to_run,
      shard: flags.shard,
      indexCacheDir: indexCacheDirectory(),
      listener: (event) => {
        const line = suiteProgressLine(event, state);
        if (line && (!quiet || event.type === 'cell-failed')) drawn.line(`assay: ${withFlagNames(line)}`);
      },
      runListener: drawn,
      logger: { warn: (message) => drawn({ type: 'warning', message }) },
    });
    drawn.stop();
    const failed = result.cells.filter((cell) => cell.status === 'failed');
    if (!quiet)
      process.stderr.write(
        flags.shard
          ? `assay: shard ${flags.shard.index} of ${flags.shard.count} written to ${result.folder}; once every shard is done: assay suite merge ${flags.suite}\n`
          : `assay: suite written to ${result.folder}; summarize it with assay suite summarize ${flags.suite}\n`,
      );
    return failed.length > 0 ? 1 : 0;
  } catch (error) {
    progress?.stop();
    return reportError(error);
  }
}

/** `assay suite summarize NAME`: writes the summary files and prints the Markdown summary. */
export async function suiteSummarizeCommand(name: string, raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(SUITE_SUMMARIZE_FLAGS, raw);
    const result = await summarizeSuite({
      name,
      suitesDirectory: flags.suites_dir,
      bootstrapIterations: flags.bootstrap_iters,
      seed: flags.seed,
    });
    if (flags.quiet !== true) {
      process.stdout.write(result.markdown);
      process.stderr.write(
        `assay: summary written to ${result.files.json}, ${result.files.csv} and ${result.files.markdown}; manifest ${result.files.manifest}\n`,
      );
    }
    const unfinished = result.summary.cells.filter(
      (cell) => cell.status === 'failed' || cell.status === 'missing',
    );
    if (unfinished.length > 0)
      process.stderr.write(
        `assay: warning: ${unfinished.length} cells have no value (failed or not run): they are marked in the summary\n`,
      );
    return 0;
  } catch (error) {
    return reportError(error);
  }
}

/** `assay suite diff BEFORE AFTER`: prints what changed; exit 0 (a difference is a finding, not an error). */
export async function suiteDiffCommand(
  before: string,
  after: string,
  raw: Record<string, unknown>,
): Promise<number> {
  try {
    const flags = parseFlags(SUITE_DIFF_FLAGS, raw);
    const diff = diffSuites({ before, after, suitesDirectory: flags.suites_dir, seed: flags.seed });
    process.stdout.write(
      flags.format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : renderSuiteDiff(diff),
    );
    return 0;
  } catch (error) {
    return reportError(error);
  }
}

/** A cell no shard finished, with the doc slices it lacks when shards ran it in slices. */
function missingCell(cell: MergedCell): string {
  const slices = cell.slices;
  if (!slices?.missing.length) return `${cell.model} × ${cell.taskSet}`;
  return `${cell.model} × ${cell.taskSet}: doc slice${slices.missing.length > 1 ? 's' : ''} ${slices.missing.map((index) => `${index}/${slices.count}`).join(', ')} not finished`;
}

/** `assay suite merge NAME`: the shards into the suite's folder; exit 0, or 1 when a cell finished in no shard. */
export async function suiteMergeCommand(name: string, raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(SUITE_MERGE_FLAGS, raw);
    const result = await mergeSuite({ name, suitesDirectory: flags.suites_dir, logger: { warn } });
    const missing = result.cells.filter((cell) => cell.status === 'missing');
    const merged = result.cells.filter((cell) => cell.status === 'merged').length;
    const kept = result.cells.filter((cell) => cell.status === 'kept').length;
    if (flags.quiet !== true || missing.length)
      process.stderr.write(
        `assay: merged ${result.shards} shards into ${result.folder}: ${merged} cells merged${kept ? `, ${kept} already there` : ''}${missing.length ? `, ${missing.length} finished in no shard (${missing.map(missingCell).join(', ')})` : ''}\n`,
      );
    return missing.length ? 1 : 0;
  } catch (error) {
    return reportError(error);
  }
}
