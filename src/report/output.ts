import path from 'node:path';
import type { LeaderboardLine } from '../results/leaderboard.js';
import { leaderboardFileName, samplesFileName } from '../results/run-files.js';
import type { SampleLine } from '../results/sample-line.js';
import { fileTimestamp } from '../util/file-timestamp.js';
import { ensureDirectory, probeWritable } from '../util/output-directory.js';
import { leaderboardLine } from './leaderboard-line.js';
import { type RunOutput, spooledTask, streamSampleLines } from './run-output.js';
import { sampleLineJson } from './samples.js';
import { type CommitStep, recoverStaged, type StagedFile, writeStaged } from './staged-write.js';
import { sanitizeModelName } from './write.js';

export interface WrittenFiles {
  results: string;
  samples: string[];
  leaderboard: string;
}

export interface WriteOptions {
  outputPath: string;
  logSamples: boolean;
  includePerExample: boolean;
  now?: Date;
  /** Called at each point of the commit (see staged-write.ts); tests kill the writer there. */
  onStep?: (step: CommitStep) => void;
}

/** A sample log's text, line by line, keeping what the leaderboard reads of each line. */
function* jsonLines(
  lines: Iterable<SampleLine>,
  kept: LeaderboardLine[],
  includePerExample: boolean,
): Generator<string> {
  for (const line of lines) {
    kept.push(leaderboardLine(line, includePerExample));
    yield `${sampleLineJson(line)}\n`;
  }
}

/** `<output_path>/<model_name_sanitized>/`, or the folder of an --output_path ending in .json (lm-eval's layout). */
export function outputDirectory(outputPath: string, modelNameSanitized: string): string {
  return outputPath.endsWith('.json')
    ? path.dirname(path.resolve(outputPath))
    : path.join(path.resolve(outputPath), modelNameSanitized);
}

/**
 * Before a run: makes its output folder, checks it is writable, and finishes or removes what runs
 * killed while writing there left behind. Returns the folder.
 */
export async function prepareOutputDirectory(outputPath: string, modelName: string): Promise<string> {
  return prepareFolder(outputDirectory(outputPath, sanitizeModelName(modelName)));
}

async function prepareFolder(directory: string): Promise<string> {
  await ensureDirectory(directory);
  await probeWritable(directory);
  await recoverStaged(directory);
  return directory;
}

/**
 * Writes results_<time>.json, the sample logs and leaderboard_<time>.json under
 * `<output_path>/<model_name_sanitized>/`, or beside a path ending in .json, as lm-eval does. The
 * files become visible together (staged-write.ts): a run killed while writing leaves none of them.
 */
export async function writeOutputs(output: RunOutput, options: WriteOptions): Promise<WrittenFiles> {
  const stamp = fileTimestamp(options.now ?? new Date());
  const directory = await prepareFolder(
    outputDirectory(options.outputPath, output.results.model_name_sanitized),
  );
  const resultsName = options.outputPath.endsWith('.json')
    ? `${path.basename(options.outputPath, '.json')}_${stamp}.json`
    : `results_${stamp}.json`;
  const files: StagedFile[] = [];
  const samples: string[] = [];
  // The leaderboard reads a few fields of each sample line; those are kept as the lines stream past
  // (sample logs are written first), the lines themselves are not.
  const leaderboardLines: Record<string, LeaderboardLine[]> = {};
  // Chunked tasks' logs, written already: each spool file is published as its sample log.
  const published: Array<{ spooled: { file: string }; name: string }> = [];
  for (const task of Object.keys(output.samples)) {
    const spooled = spooledTask(output.samples, task);
    if (spooled) {
      leaderboardLines[task] =
        typeof spooled.leaderboard === 'function' ? spooled.leaderboard() : spooled.leaderboard;
      if (options.logSamples) {
        const name = samplesFileName(task, stamp);
        files.push({ name, content: { file: spooled.file } });
        samples.push(path.join(directory, name));
        published.push({ spooled, name });
      }
      continue;
    }
    const kept: LeaderboardLine[] = [];
    leaderboardLines[task] = kept;
    const lines = streamSampleLines(output.samples, task);
    if (options.logSamples) {
      const name = samplesFileName(task, stamp);
      files.push({ name, content: jsonLines(lines, kept, options.includePerExample) });
      samples.push(path.join(directory, name));
    } else for (const line of lines) kept.push(leaderboardLine(line, options.includePerExample));
  }
  // Derived from what is written beside it: the results file and the sample lines. Its code loads only
  // for a run that writes outputs.
  const { buildLeaderboard } = await import('../results/leaderboard.js');
  // Sample logs, then the results file that names them, then the leaderboard that summarises it; the
  // leaderboard's text is made when it is written, after the sample logs.
  files.push({ name: resultsName, content: `${JSON.stringify(output.results, null, 2)}\n` });
  files.push({
    name: leaderboardFileName(stamp),
    content: (function* () {
      const leaderboard = buildLeaderboard({
        results: output.results,
        samples: leaderboardLines,
        includePerExample: options.includePerExample,
        resultsFile: resultsName,
      });
      yield `${JSON.stringify(leaderboard, null, 2)}\n`;
    })(),
  });
  await writeStaged(directory, stamp, files, options.onStep);
  // The library's `samples` record reads a chunked task's lines from where they are now.
  for (const { spooled, name } of published) spooled.file = path.join(directory, name);
  return {
    results: path.join(directory, resultsName),
    samples,
    leaderboard: path.join(directory, leaderboardFileName(stamp)),
  };
}
