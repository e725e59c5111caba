import { AssayError } from '../errors.js';
import { mergeShards } from '../report/merge/merge-shards.js';
import { MERGE_FLAGS } from './command-flags.js';
import { reportError } from './errors.js';
import { parseFlags } from './option-table.js';
import { type ConsoleProgress, progressListener } from './progress.js';
import { resultsTables } from './results-table.js';

/** `assay merge SHARD... -o OUT`: one results file and sample logs from the outputs of `--shard i/N` runs. */
export async function mergeCommand(shards: string[], raw: Record<string, unknown>): Promise<number> {
  let progress: ConsoleProgress | undefined;
  try {
    const flags = parseFlags(MERGE_FLAGS, raw);
    const drawn = progressListener(process.stderr, { progress: flags.quiet !== true, warnings: true });
    progress = drawn;
    if (!flags.output_path) {
      throw new AssayError('bad_option', '--output_path is required (where the merged run is written)');
    }
    const merged = await mergeShards({
      shards,
      outputPath: flags.output_path,
      tasks: flags.tasks,
      includePath: flags.include_path,
      python: flags.python,
      logger: { warn: (message) => drawn({ type: 'warning', message }) },
      listener: drawn,
    });
    drawn.stop();
    process.stdout.write(resultsTables(merged.results, flags.table));
    if (!flags.quiet)
      process.stderr.write(`assay: merged ${merged.shardCount} shards into ${merged.files.results}\n`);
    if (merged.erroredSamples > 0) {
      process.stderr.write(
        `assay: ${merged.erroredSamples} samples failed in the shards; see the sample logs for their errors\n`,
      );
      return 1;
    }
    return 0;
  } catch (error) {
    progress?.stop();
    return reportError(error);
  }
}
