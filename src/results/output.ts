import path from 'node:path';
import type { EvaluationOutput } from '../evaluate/run-evaluation.js';
import { buildLeaderboard } from './leaderboard.js';
import { fileTimestamp, writeFileAtomic } from './write.js';

export interface WrittenFiles {
  results: string;
  samples: string[];
  leaderboard: string;
}

/**
 * Writes results_<time>.json (and the sample logs and leaderboard.json) under
 * `<output_path>/<model_name_sanitized>/`, or beside a path ending in .json, as lm-eval does.
 * Every file is written atomically; sample logs are written before the results file that names them.
 */
export async function writeOutputs(
  output: EvaluationOutput,
  options: { outputPath: string; logSamples: boolean; includePerExample: boolean; now?: Date },
): Promise<WrittenFiles> {
  const stamp = fileTimestamp(options.now ?? new Date());
  let directory: string;
  let resultsFile: string;
  if (options.outputPath.endsWith('.json')) {
    directory = path.dirname(path.resolve(options.outputPath));
    const stem = path.basename(options.outputPath, '.json');
    resultsFile = path.join(directory, `${stem}_${stamp}.json`);
  } else {
    directory = path.join(path.resolve(options.outputPath), output.results.model_name_sanitized);
    resultsFile = path.join(directory, `results_${stamp}.json`);
  }
  const samples: string[] = [];
  if (options.logSamples) {
    for (const [task, lines] of Object.entries(output.samples)) {
      const file = path.join(directory, `samples_${task}_${stamp}.jsonl`);
      await writeFileAtomic(
        file,
        lines.map((line) => `${JSON.stringify(line)}\n`),
      );
      samples.push(file);
    }
  }
  const leaderboard = buildLeaderboard({
    model: output.results.model_name,
    date: output.results.date,
    partial: output.results.partial,
    plans: output.plans,
    taskResults: output.taskResults,
    samples: output.samples,
    latency: output.results.request_stats,
    includePerExample: options.includePerExample,
    errorsByTask: output.results.errors.by_task,
  });
  const leaderboardFile = path.join(directory, 'leaderboard.json');
  await writeFileAtomic(leaderboardFile, `${JSON.stringify(leaderboard, null, 2)}\n`);
  await writeFileAtomic(resultsFile, `${JSON.stringify(output.results, null, 2)}\n`);
  return { results: resultsFile, samples, leaderboard: leaderboardFile };
}
