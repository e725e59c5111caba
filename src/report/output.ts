import path from 'node:path';
import { leaderboardFileName, samplesFileName } from '../results/run-files.js';
import { fileTimestamp } from '../util/file-timestamp.js';
import { ensureDirectory, probeWritable } from '../util/output-directory.js';
import type { RunOutput } from './run-output.js';
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
  if (options.logSamples) {
    for (const [task, lines] of Object.entries(output.samples)) {
      const name = samplesFileName(task, stamp);
      files.push({ name, content: lines.map((line) => `${sampleLineJson(line)}\n`) });
      samples.push(path.join(directory, name));
    }
  }
  // Derived from what is written beside it: the results file and the sample lines. Its code loads only
  // for a run that writes outputs.
  const { buildLeaderboard } = await import('../results/leaderboard.js');
  const leaderboard = buildLeaderboard({
    results: output.results,
    samples: output.samples,
    includePerExample: options.includePerExample,
    resultsFile: resultsName,
  });
  // Sample logs, then the results file that names them, then the leaderboard that summarises it.
  files.push({ name: resultsName, content: `${JSON.stringify(output.results, null, 2)}\n` });
  files.push({ name: leaderboardFileName(stamp), content: `${JSON.stringify(leaderboard, null, 2)}\n` });
  await writeStaged(directory, stamp, files, options.onStep);
  return {
    results: path.join(directory, resultsName),
    samples,
    leaderboard: path.join(directory, leaderboardFileName(stamp)),
  };
}
