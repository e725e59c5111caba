/**
 * `assay merge`: the outputs of `assay run --shard i/N` for every i, combined into what one unsharded run
 * would have written. Scores are re-aggregated from the per-sample metric values in the sample logs with
 * the run's own aggregation code (so stderr, bootstrap and intervals see the same items in the same
 * order), and so is the perplexity block of loglikelihood_rolling tasks (from each doc's `ppl_doc`);
 * everything else comes from the shards, which must agree on it. The concerns live beside this file:
 * load-shards.ts (read and check the shards), rebuild-tasks.ts (scored tasks from the logs),
 * assemble.ts (the merged results file).
 */

import { AssayError } from '../../errors.js';
import {
  aggregateGroup,
  aggregateTask,
  aggregationSpec,
  allGroups,
  type GroupResult,
  type TaskResult,
} from '../../evaluate/aggregate.js';
import type { PerplexityReport } from '../../evaluate/perplexity/types.js';
import type { TaskPlan } from '../../evaluate/plan.js';
import { type Logger, type RunListener, startOperation, withListener } from '../../events.js';
import type { SampleLine } from '../../results/sample-line.js';
import { checkIncludePath } from '../../tasks/include-path.js';
import { resolveTasks } from '../../tasks/manager.js';
import { startPythonFor } from '../../tasks/python-for-tasks.js';
import { applyRunMetadata } from '../../tasks/run-metadata.js';
import { type LoadedTask, type TaskNode, uniqueLeaves } from '../../tasks/task.js';
import { prepareOutputDirectory, type WrittenFiles, writeOutputs } from '../output.js';
import { type RunResult, taskHashes } from '../run-output.js';
import { assembleResults } from './assemble.js';
import { checkSameRun, loadShardRun, orderedShards, type ShardRun } from './load-shards.js';
import { checkTasksUnchanged, mergeLogs, mergePerplexity, rebuildScoredTask } from './rebuild-tasks.js';

export interface MergeOptions {
  /** Each shard's results file, its directory, or the --output_path above it. */
  shards: string[];
  outputPath: string;
  /** Override the task specs / include paths the shards recorded (when paths differ on this machine). */
  tasks?: string[];
  includePath?: string[];
  logger?: Logger;
  /** Progress: tasks re-aggregated, and what loading the tasks does (downloads, process_docs). */
  listener?: RunListener;
  /** Interpreter for Python aggregations (`--python`), as for `run`. */
  python?: string;
  /**
   * The response cache the merged run records (`config.use_cache`), for shards that each kept a cache of
   * their own (a suite's shards, gathered into this one): the shards' cache paths are then not compared.
   */
  useCache?: string;
}

export interface MergeResult extends RunResult {
  /** The merged run's files. */
  files: WrittenFiles;
  shardCount: number;
}

export async function mergeShards(options: MergeOptions): Promise<MergeResult> {
  return withListener(options.listener, () => mergeAll(options));
}

async function mergeAll(options: MergeOptions): Promise<MergeResult> {
  if (options.shards.length === 0)
    throw new AssayError('bad_option', 'assay merge: give the shard runs to merge', {
      location: { field: 'shards' },
    });
  const runs = orderedShards(options.shards.map(loadShardRun));
  for (const run of runs) {
    if (run.ignoredResultsFiles.length) {
      options.logger?.warn(
        `${run.location} holds several results files; merging the newest, ${run.resultsFile} (pass the file itself to choose)`,
      );
    }
  }
  // The judge statistics (agreement, PPI++) and usage need every doc's judge score with the labels and
  // the judge's calls; merge reads logged values only, so it refuses rather than write a `judges` block
  // of one slice (or none) for the whole run.
  const judged = runs.find((run) => Object.keys(run.results.judges ?? {}).length > 0);
  if (judged)
    throw new AssayError(
      'incompatible_runs',
      `shard ${judged.shard.index}/${judged.shard.count} (${judged.resultsFile}) has llm_judge metrics (tasks ${Object.keys(judged.results.judges ?? {}).join(', ')}), and assay merge does not rebuild the results' \`judges\` block (judge agreement, PPI++ estimate, judge usage) from shards; run the judged tasks unsharded`,
    );
  const first = runs[0];
  for (const run of runs.slice(1))
    checkSameRun(first, run, options.logger, {
      ownCaches: options.useCache !== undefined,
    });

  checkIncludePath(options.includePath);
  // Made and probed before the merge work, as a run does.
  await prepareOutputDirectory(options.outputPath, first.results.model_name);
  const record = first.shard;
  const nodes = await resolveTasks(options.tasks ?? record.tasks, {
    includePath: options.includePath ?? record.include_path ?? undefined,
    logger: options.logger,
    python: options.python,
  });
  // The run's `metadata` went into every task's config; the tasks loaded again must carry it too.
  if (record.metadata) applyRunMetadata(nodes, record.metadata);
  const tasks = uniqueLeaves(nodes);
  checkTasksUnchanged(tasks, first.results);
  // Python aggregations re-run over the logged values (their JSON form: a tuple comes back as a list).
  const python = await startPythonFor(nodes, { python: options.python });
  try {
    return await mergeLoaded(options, runs, nodes, tasks);
  } finally {
    await python?.close();
  }
}

async function mergeLoaded(
  options: MergeOptions,
  runs: ShardRun[],
  nodes: TaskNode[],
  tasks: LoadedTask[],
): Promise<MergeResult> {
  const first = runs[0];
  const bootstrapIters = first.results.config.bootstrap_iters;
  const plans: TaskPlan[] = [];
  const taskResults: TaskResult[] = [];
  const samples: Record<string, SampleLine[]> = {};
  const perplexity: Record<string, PerplexityReport> = {};
  let erroredSamples = 0;
  const progress = startOperation(options.listener, {
    id: 'merge',
    label: `merge ${runs.length} shards`,
    unit: 'tasks',
    total: tasks.length,
  });
  for (const task of tasks) {
    const merged = mergeLogs(task, runs);
    const scored = rebuildScoredTask(task, merged.lines, runs);
    plans.push(scored.plan);
    const ppl = mergePerplexity(task.name, scored, runs);
    if (ppl) perplexity[task.name] = ppl;
    const result = await aggregateTask(scored, aggregationSpec(scored.plan), {
      bootstrapIters,
      predictOnly: first.shard.predict_only,
    });
    erroredSamples += result.erroredSamples;
    taskResults.push(result);
    samples[task.name] = merged.lines;
    progress.progress(taskResults.length);
  }
  progress.end();
  const byName = new Map(taskResults.map((result) => [result.name, result]));
  const groupResults = (
    await Promise.all(allGroups(nodes).map((group) => aggregateGroup(group, byName)))
  ).filter((result): result is GroupResult => result !== undefined);

  const results = assembleResults(runs, {
    nodes,
    plans,
    taskResults,
    groupResults,
    taskHashes: taskHashes(samples),
  });
  if (options.useCache !== undefined) results.config = { ...results.config, use_cache: options.useCache };
  // Last, as a run adds it after building the rest.
  if (Object.keys(perplexity).length) results.perplexity = perplexity;
  const output: RunResult = { results, samples, taskResults, groupResults, erroredSamples };
  options.listener?.({ type: 'phase', phase: 'writing' });
  const files = await writeOutputs(output, {
    outputPath: options.outputPath,
    logSamples: true,
    includePerExample: first.includePerExample,
  });
  return { ...output, files, shardCount: runs.length };
}
