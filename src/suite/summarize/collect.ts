/**
 * What a summary reads from a suite's folder, through the results contract's readers: the suite record
 * (its models, task sets, groups), each cell's record, and for each finished cell its results file and
 * sample logs. Out come the columns of the summary: per leaf task its primary metric and, per model, the
 * cell's value, interval and n from results.json and its per-doc scores from the sample log.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { AssayError } from '../../errors.js';
import { type ComparisonTarget, keyed } from '../../results/compare/pair-samples.js';
import { metricKeysOf } from '../../results/metric-keys.js';
import { type LoadedRun, loadRun } from '../../results/read-run.js';
import { readSampleScores } from '../../results/read-samples.js';
import { readSuiteCellRecord, type SuiteCellRecord } from '../../results/suite-cell-record.js';
import { readSuiteRecord, SUITE_RECORD_FILE, type SuiteRecord } from '../../results/suite-record.js';
import type { SummaryCell } from '../../results/suite-summary.js';
import { type SuiteFolder, suiteFolder } from '../suite-folder.js';

export interface CollectedCell {
  summary: SummaryCell;
  /** The metric's stderr from results.json (for macro averages), when the run computed one. */
  stderr: number | null;
  /** Per-doc scores by doc key (`doc_hash#occurrence`), when the sample log has them. */
  scores: Map<string, number> | null;
  seconds: number | null;
}

export interface TaskColumn {
  task: string;
  taskSet: string;
  metric: string;
  filter: string;
  higherIsBetter: boolean;
  /** One per model of the suite, in its order. */
  cells: CollectedCell[];
}

export interface CollectedSuite {
  folder: SuiteFolder;
  record: SuiteRecord;
  models: string[];
  columns: TaskColumn[];
  /** Per model: the cost of each finished cell (null when its backend reports none). */
  cellCosts: Map<string, Array<number | null>>;
}

/** The suite's record, suite.json (written by its run). */
export function suiteRecordOf(folder: SuiteFolder): SuiteRecord {
  const file = path.join(folder.root, SUITE_RECORD_FILE);
  if (!existsSync(file))
    throw new AssayError(
      'not_found',
      `no suite at ${folder.root} (no ${SUITE_RECORD_FILE}): run the suite under this name first`,
      { location: { file } },
    );
  return readSuiteRecord(file);
}

function usageOf(run: LoadedRun): { costUsd: number | null } {
  const stats = (run.raw.request_stats ?? {}) as { usage?: { costUsd?: unknown } | null };
  const cost = stats.usage?.costUsd;
  return { costUsd: typeof cost === 'number' ? cost : null };
}

function numberAt(entry: Record<string, unknown> | undefined, key: string): number | null {
  const value = entry?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function intervalAt(entry: Record<string, unknown> | undefined, key: string): [number, number] | null {
  const value = entry?.[key];
  return Array.isArray(value) && value.length === 2 && value.every((item) => typeof item === 'number')
    ? [value[0] as number, value[1] as number]
    : null;
}

export function collectSuite(suitesDirectory: string, name: string): CollectedSuite {
  const folder = suiteFolder(suitesDirectory, name);
  const record = suiteRecordOf(folder);
  const models = record.models.map((model) => model.name);
  const cellCosts = new Map<string, Array<number | null>>(models.map((model) => [model, []]));
  // Each finished cell's run, read once.
  const runs = new Map<string, { record: SuiteCellRecord | undefined; run: LoadedRun | undefined }>();
  for (const model of models)
    for (const taskSet of Object.keys(record.task_sets)) {
      const cell = readSuiteCellRecord(folder.cellRecord(model, taskSet));
      let run: LoadedRun | undefined;
      if (cell?.status === 'done' && cell.results_file) {
        const file = path.resolve(folder.cellFolder(model, taskSet), cell.results_file);
        if (existsSync(file)) {
          run = loadRun(file, { requireSamples: false });
          cellCosts.get(model)?.push(usageOf(run).costUsd);
        }
      }
      runs.set(`${model}\u0000${taskSet}`, { record: cell, run });
    }
  const columns: TaskColumn[] = [];
  for (const [taskSet, tasks] of Object.entries(record.task_sets))
    for (const task of tasks) {
      const cellsOfTask = models.map((model) => ({ model, ...runs.get(`${model}\u0000${taskSet}`) }));
      // The primary metric: the first metric of the task in the first finished run (lm-eval's metric_list order).
      const first = cellsOfTask.find((cell) => cell.run?.results.results[task]);
      const key = metricKeysOf(first?.run?.results.results[task] as Record<string, unknown> | undefined)[0];
      const metric = key?.metric ?? '';
      const filter = key?.filter ?? 'none';
      const higherIsBetter = first?.run?.results.higher_is_better[task]?.[metric] ?? true;
      const target: ComparisonTarget = { task, metric, filter, higherIsBetter };
      columns.push({
        task,
        taskSet,
        metric,
        filter,
        higherIsBetter,
        cells: cellsOfTask.map((cell) => collectCell(cell.model, taskSet, target, cell.record, cell.run)),
      });
    }
  return { folder, record, models, columns, cellCosts };
}

function collectCell(
  model: string,
  taskSet: string,
  target: ComparisonTarget,
  record: SuiteCellRecord | undefined,
  run: LoadedRun | undefined,
): CollectedCell {
  const { task, metric, filter } = target;
  const base: SummaryCell = {
    model,
    task,
    task_set: taskSet,
    status: 'missing',
    metric,
    value: null,
    ci: null,
    n: null,
    errored_samples: 0,
    latency_p50_ms: null,
    cost_usd: null,
    results_file: null,
    reason: null,
  };
  if (!record)
    return { summary: { ...base, reason: 'not run yet' }, stderr: null, scores: null, seconds: null };
  if (record.status === 'failed')
    return {
      summary: { ...base, status: 'failed', reason: record.error ?? 'failed' },
      stderr: null,
      scores: null,
      seconds: null,
    };
  if (!run)
    return {
      summary: { ...base, reason: 'its results file is gone: run the suite again' },
      stderr: null,
      scores: null,
      seconds: null,
    };
  const { results } = run;
  const entry = results.results[task] as Record<string, unknown> | undefined;
  const value = numberAt(entry, `${metric},${filter}`);
  const errored = results.errors?.by_task?.[task] ?? 0;
  const sampleFile = run.sampleFiles.get(task);
  let scores: Map<string, number> | null = null;
  if (sampleFile && value !== null) {
    const { scored } = keyed(readSampleScores(sampleFile), target, 'skip');
    scores = new Map([...scored].map(([key, { score }]) => [key, score]));
  }
  const status: SummaryCell['status'] =
    value === null ? 'failed' : errored > 0 ? 'errored' : results.partial ? 'partial' : 'ok';
  return {
    summary: {
      ...base,
      status,
      value,
      ci: intervalAt(entry, `${metric}_ci,${filter}`),
      n: results['n-samples'][task]?.effective ?? null,
      errored_samples: errored,
      latency_p50_ms: results.request_stats?.by_task?.[task]?.p50_ms ?? null,
      cost_usd: usageOf(run).costUsd,
      results_file: run.resultsFile,
      reason: value === null ? `the run has no ${metric} (${filter}) for this task` : null,
    },
    stderr: numberAt(entry, `${metric}_stderr,${filter}`),
    scores,
    seconds:
      typeof run.raw.total_evaluation_time_seconds === 'number'
        ? run.raw.total_evaluation_time_seconds
        : null,
  };
}
