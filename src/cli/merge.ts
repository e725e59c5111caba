import { AssayError } from '../errors.js';
import { mergeShards } from '../results/merge/merge-shards.js';
import { makeTable } from '../results/table.js';
import { reportError } from './errors.js';

function list(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value.map(String) : [String(value)];
  return items
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);
}

/** `assay merge SHARD... -o OUT`: one results file and sample logs from the outputs of `--shard i/N` runs. */
export async function mergeCommand(shards: string[], flags: Record<string, unknown>): Promise<number> {
  try {
    if (typeof flags.output_path !== 'string' || !flags.output_path) {
      throw new AssayError('bad_argument', '--output_path is required (where the merged run is written)');
    }
    const merged = await mergeShards({
      shards,
      outputPath: flags.output_path,
      tasks: list(flags.tasks),
      includePath: list(flags.include_path),
      python: flags.python === undefined ? undefined : String(flags.python),
      logger: { warn: (message) => process.stderr.write(`assay: warning: ${message}\n`) },
    });
    process.stdout.write(makeTable(merged.results));
    if (merged.results.groups) process.stdout.write(`\n${makeTable(merged.results, 'groups')}`);
    process.stderr.write(`assay: merged ${merged.shardCount} shards into ${merged.files.results}\n`);
    if (merged.erroredSamples > 0) {
      process.stderr.write(
        `assay: ${merged.erroredSamples} samples failed in the shards; see the sample logs for their errors\n`,
      );
      return 1;
    }
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
