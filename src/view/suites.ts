/**
 * The suites under the viewed folders, as the Suite page shows them: a folder holding suite.json (what
 * `assay suite run` writes) is a suite's; its leaderboard is summary.json, read through the contract
 * (results/suite-summary.ts) and never computed here. Without a summary the page says how to make one.
 * Each cell folder is a normal run folder: its run (the results file cell.json names) is found among the
 * discovered runs, so the Run, Samples and Compare pages show it as any other run.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { readSuiteSummary } from '../results/read-suite-summary.js';
import { parseSuiteCellRecord, SUITE_CELL_FILE } from '../results/suite-cell-record.js';
import { readSuiteRecord, type SuiteRecord } from '../results/suite-record.js';
import { SUITE_SUMMARY_FILE, type SuiteSummary } from '../results/suite-summary.js';
import type { HeadToHead, SuiteCellRun, SuiteDetail, SuiteListing, SuitesResponse } from './api.js';
import { type DiscoveredRun, type Discovery, runId } from './discover.js';
import { resolveInside } from './safe-path.js';

/** A suite as the store holds it: its listing and where its files are. */
export interface DiscoveredSuite {
  listing: SuiteListing;
  folder: string;
  record: SuiteRecord;
}

export function suiteId(folder: string): string {
  return createHash('sha256')
    .update(`suite:${path.resolve(folder)}`)
    .digest('hex')
    .slice(0, 12);
}

type SummaryRead =
  | { state: 'ready'; summary: SuiteSummary; problem: null }
  | { state: 'absent' | 'invalid'; summary: null; problem: string };

/**
 * summary.json read once per version of the file (its size and modification time): a 20-model × 60-task
 * summary is megabytes, and the page asks for it again on each visit.
 */
export class SummaryReader {
  private readonly cache = new Map<string, { key: string; read: SummaryRead }>();

  /** `shownFolder`: the folder as the page names it (relative to its viewed directory). */
  async read(
    folder: string,
    name: string,
    shownFolder: string,
  ): Promise<SummaryRead & { modifiedMs: number | null }> {
    const file = path.join(folder, SUITE_SUMMARY_FILE);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      this.cache.delete(file);
      return {
        state: 'absent',
        summary: null,
        problem: `This suite has no ${SUITE_SUMMARY_FILE} yet: make it with \`assay suite summarize ${name}\` (naming the folder that holds ${name}/ as its suites folder when that is not ./suites), then reload.`,
        modifiedMs: null,
      };
    }
    const key = `${info.size}:${info.mtimeMs}`;
    let cached = this.cache.get(file);
    if (cached?.key !== key) {
      let read: SummaryRead;
      try {
        read = { state: 'ready', summary: readSuiteSummary(file), problem: null };
      } catch (error) {
        if (!(error instanceof AssayError)) throw error;
        read = {
          state: 'invalid',
          summary: null,
          problem: `${path.join(shownFolder, SUITE_SUMMARY_FILE)}: ${error.message}. Make it again with \`assay suite summarize ${name}\`.`,
        };
      }
      cached = { key, read };
      this.cache.set(file, cached);
    }
    return { ...cached.read, modifiedMs: info.mtimeMs };
  }
}

/** Every suite record found under the roots, read through its schema; one that is not a record is a problem. */
export async function discoverSuites(
  roots: string[],
  discovery: Pick<Discovery, 'suiteRecords'>,
  summaries: SummaryReader,
): Promise<{ suites: DiscoveredSuite[]; problems: SuitesResponse['problems'] }> {
  const suites: DiscoveredSuite[] = [];
  const problems: SuitesResponse['problems'] = [];
  for (const { root, file } of discovery.suiteRecords) {
    const rootPath = path.resolve(roots[root]);
    const folder = path.dirname(file);
    let record: SuiteRecord;
    try {
      record = readSuiteRecord(file);
    } catch (error) {
      if (!(error instanceof AssayError)) throw error;
      problems.push({ file: path.relative(rootPath, file), message: error.message });
      continue;
    }
    const label = path.relative(rootPath, folder) || '.';
    const { state } = await summaries.read(folder, record.name, label);
    suites.push({
      folder,
      record,
      listing: {
        id: suiteId(folder),
        name: record.name,
        label,
        root,
        isRoot: label === '.',
        version: record.version,
        description: record.description,
        models: record.models.map((model) => model.name),
        taskSets: Object.keys(record.task_sets),
        summary: state,
      },
    });
  }
  return { suites, problems };
}

/**
 * The cell's record, or undefined when the cell has none (not run) or it is not one. Read only inside the
 * suite's folder: a model or task set named `../x` in suite.json, or a linked cell folder, reads nothing.
 */
async function cellRecordOf(folder: string, model: string, taskSet: string) {
  const file = await resolveInside(folder, [model, taskSet, SUITE_CELL_FILE].join('/'));
  const text = file ? await readFile(file, 'utf8').catch(() => null) : null;
  return text === null
    ? undefined
    : { record: parseSuiteCellRecord(text), file: path.join(folder, model, taskSet) };
}

/** The Suite page's data: the suite's shape, its summary (or why there is none) and its cells' runs. */
export async function suiteDetail(
  suite: DiscoveredSuite,
  runs: DiscoveredRun[],
  summaries: SummaryReader,
): Promise<SuiteDetail> {
  const { record, folder } = suite;
  const byId = new Map(runs.map((run) => [run.summary.id, run]));
  const cellRuns: SuiteCellRun[] = [];
  let newestCell = 0;
  for (const { name: model } of record.models)
    for (const taskSet of Object.keys(record.task_sets)) {
      const cell = await cellRecordOf(folder, model, taskSet);
      if (!cell?.record) continue;
      const finished = Date.parse(cell.record.started_at) + cell.record.seconds * 1000;
      if (Number.isFinite(finished)) newestCell = Math.max(newestCell, finished);
      if (cell.record.status !== 'done' || !cell.record.results_file) continue;
      const run = byId.get(runId(path.resolve(cell.file, cell.record.results_file)));
      if (run) cellRuns.push({ model, taskSet, run: run.summary });
    }
  const { summary, problem, modifiedMs } = await summaries.read(folder, record.name, suite.listing.label);
  // A cell that ended after the summary was written is not in it: said, not silently shown as current.
  const staleSummary =
    summary && modifiedMs !== null && newestCell > modifiedMs
      ? `Cells ran after this summary was made; it does not show them. Run \`assay suite summarize ${record.name}\` again.`
      : null;
  const { head_to_head: matrices = [], ...leaderboard } = summary ?? {};
  return {
    suite: suite.listing,
    taskSets: record.task_sets,
    groups: record.groups,
    summary: summary ? (leaderboard as SuiteDetail['summary']) : null,
    headToHead: matrices.map(({ scope, name }) => ({ scope, name })),
    summaryProblem: problem,
    staleSummary,
    cellRuns,
  };
}

/** One head-to-head matrix of the suite's summary (the drill-down's pairs). */
export async function suiteHeadToHead(
  suite: DiscoveredSuite,
  scope: string,
  name: string,
  summaries: SummaryReader,
): Promise<HeadToHead> {
  const { summary, problem } = await summaries.read(suite.folder, suite.record.name, suite.listing.label);
  if (!summary) throw new AssayError('not_found', problem);
  const matrix = summary.head_to_head.find((entry) => entry.scope === scope && entry.name === name);
  if (!matrix)
    throw new AssayError(
      'not_found',
      `suite ${suite.record.name}'s summary has no head-to-head matrix for ${scope} ${name}`,
    );
  return matrix;
}
