/**
 * `assay suite summarize NAME`: reads the suite's cells (collect.ts), computes each task's and group's
 * statistics, and writes summary.json (the versioned contract, results/suite-summary.ts), summary.csv and
 * summary.md into the suite's folder. Without groups in the suite file, one group `all` holds every task.
 */
import path from 'node:path';
import { writeFileAtomic } from '../../report/write.js';
import { SUITE_SUMMARY_SCHEMA, type SuiteSummary, suiteSummarySchema } from '../../results/suite-summary.js';
import { writeSuiteManifest } from '../suite-manifest.js';
import { collectSuite } from './collect.js';
import { groupStatistics } from './group-statistics.js';
import { summaryCsv } from './summary-csv.js';
import { summaryMarkdown } from './summary-markdown.js';
import { taskStatistics } from './task-statistics.js';

export interface SummarizeSuiteOptions {
  name: string;
  /** Default `suites`. */
  suitesDirectory?: string;
  /** Joint bootstrap draws for rank and win-rate intervals (default 2000). */
  bootstrapIterations?: number;
  seed?: number;
}

export interface SummarizeSuiteResult {
  summary: SuiteSummary;
  /** The summary's files and the suite manifest written beside them. */
  files: { json: string; csv: string; markdown: string; manifest: string };
  markdown: string;
}

export function buildSuiteSummary(options: SummarizeSuiteOptions): SuiteSummary {
  const collected = collectSuite(options.suitesDirectory ?? 'suites', options.name);
  const { record, models, columns } = collected;
  const settings = {
    iterations: options.bootstrapIterations ?? 2000,
    seed: options.seed ?? 0,
    confidence: 0.95,
  };
  const tasks = columns.map((column) => taskStatistics(column, models, settings));
  const groupTasks = Object.keys(record.groups).length
    ? record.groups
    : { all: columns.map((column) => column.task) };
  const groups = Object.entries(groupTasks).map(([group, names]) =>
    groupStatistics(
      group,
      columns.filter((column) => names.includes(column.task)),
      models,
      settings,
    ),
  );
  const summary: SuiteSummary = {
    schema: SUITE_SUMMARY_SCHEMA,
    suite: record.name,
    version: record.version,
    suite_sha256: record.suite_sha256,
    confidence: settings.confidence,
    bootstrap_iterations: settings.iterations,
    seed: settings.seed,
    models: record.models.map((model, k) => {
      const cells = columns.map((column) => column.cells[k]);
      const costs = collected.cellCosts.get(model.name) ?? [];
      const reported = costs.filter((cost): cost is number => cost !== null);
      const seconds = [
        ...new Map(
          cells
            .filter((cell) => cell.seconds !== null)
            .map((cell) => [cell.summary.results_file, cell.seconds as number]),
        ).values(),
      ];
      return {
        name: model.name,
        model: model.model,
        cells_done: cells.filter((cell) => cell.summary.value !== null).length,
        cells_failed: cells.filter((cell) => cell.summary.status === 'failed').length,
        cells_missing: cells.filter((cell) => cell.summary.status === 'missing').length,
        cost_usd: reported.length ? reported.reduce((sum, cost) => sum + cost, 0) : null,
        seconds: seconds.length ? seconds.reduce((sum, value) => sum + value, 0) : null,
      };
    }),
    cells: columns.flatMap((column) => column.cells.map((cell) => cell.summary)),
    tasks: tasks.map((task) => task.summary),
    groups: groups.map((group) => group.summary),
    head_to_head: [...tasks.map((task) => task.headToHead), ...groups.map((group) => group.headToHead)],
  };
  // What is written is what readers will parse: checked against the contract before it is.
  return suiteSummarySchema.parse(summary);
}

export async function summarizeSuite(options: SummarizeSuiteOptions): Promise<SummarizeSuiteResult> {
  const summary = buildSuiteSummary(options);
  const root = path.resolve(options.suitesDirectory ?? 'suites', options.name);
  // The record of the cells this summary was computed from (a cell rerun since the run's manifest included).
  const { file: manifest } = await writeSuiteManifest(options.suitesDirectory ?? 'suites', options.name);
  const files = {
    json: path.join(root, 'summary.json'),
    csv: path.join(root, 'summary.csv'),
    markdown: path.join(root, 'summary.md'),
    manifest,
  };
  const markdown = summaryMarkdown(summary);
  await writeFileAtomic(files.json, `${JSON.stringify(summary, null, 2)}\n`, '`suitesDirectory`');
  await writeFileAtomic(files.csv, summaryCsv(summary), '`suitesDirectory`');
  await writeFileAtomic(files.markdown, markdown, '`suitesDirectory`');
  return { summary, files, markdown };
}
