/**
 * The viewer's API: the one file of types shared by the server (src/view/server.ts), the static export
 * and the web app (viewer/). The app imports it with `import type`, so nothing here may need Node.
 */

import type { HeadToHead, SuiteSummary } from '../results/suite-summary.js';

export const VIEW_API_VERSION = 'assay.view/v3';

/** One results_<time>.json found under a viewed directory. */
export interface RunSummary {
  /** Stable, opaque id (a hash of the file's path); the API never takes file paths. */
  id: string;
  /** The results file's path relative to the viewed directory it was found under, for display. */
  label: string;
  /** Which of the viewed directories (by position) the run was found under. */
  root: number;
  model: string;
  /** `model_args` as one `key=value,…` string (search, tooltips). */
  modelArgs: string;
  /** The same, one entry per argument, in the file's order. */
  modelArgEntries: { key: string; value: string }[];
  tasks: string[];
  /** Seconds since the epoch, as lm-eval writes `date`. */
  date: number;
  gitHash: string | null;
  /** Made with --limit or --samples: its scores are not comparable with a full run. */
  partial: boolean;
  limit: number | null;
  /** Tasks with a sample log beside the results file. */
  sampleTasks: string[];
  /** Each task's primary score (its first metric, as compare and gate default to): the results matrix. */
  scores: Record<string, PrimaryScore>;
  /**
   * A run with a latency cap (`max_latency_s`): the cap and, per task, the docs that went over it (they
   * count in no metric); null for a run without one.
   */
  timeouts: { maxLatencyS: number; byTask: Record<string, number> } | null;
}

/** A task's first `metric,filter` in a results file, with its stderr and 95% interval. */
export interface PrimaryScore {
  metric: string;
  filter: string;
  value: number | null;
  stderr: number | null;
  ci: [number, number] | null;
  higherIsBetter: boolean | null;
}

export interface MetricRow {
  kind: 'task' | 'group';
  name: string;
  alias: string;
  metric: string;
  filter: string;
  value: number | null;
  stderr: number | null;
  /** The 95% interval assay writes as `<metric>_ci,<filter>`; null when the results file has none. */
  ci: [number, number] | null;
  higherIsBetter: boolean | null;
  /** Scored docs (tasks) or samples (groups). */
  n: number | null;
}

/** A part of the manifest as a reader wants it: labelled fields, or a table with a row per task or file. */
export type ManifestSection =
  | { title: string; kind: 'fields'; fields: { label: string; value: string }[] }
  | { title: string; kind: 'table'; columns: string[]; rows: string[][] };

export interface RunDetail {
  run: RunSummary;
  rows: MetricRow[];
  /** The manifest as written (raw JSON on the page); null in results without one (lm-eval's). */
  manifest: unknown;
  /** The manifest as readable sections: model, data, tasks, environment; empty without a manifest. */
  manifestSections: ManifestSection[];
  config: unknown;
  nShot: Record<string, number>;
  versions: Record<string, number | string | null>;
  totalSeconds: number | null;
}

export interface RunsResponse {
  version: typeof VIEW_API_VERSION;
  runs: RunSummary[];
  /** Files that looked like results but failed validation: shown, never silently dropped. */
  problems: { file: string; message: string }[];
}

export type CorrectFilter = 'all' | 'correct' | 'incorrect';

export interface SampleQuery {
  offset: number;
  limit: number;
  correct?: CorrectFilter;
  /** Metric the range applies to; defaults to the line's first metric. */
  metric?: string;
  min?: number;
  max?: number;
  /** Case-insensitive substring of the prompt, target, responses or doc. */
  text?: string;
  /** lm-eval filter name (`none`, `strict-match`, …). */
  filter?: string;
  /** Only the lines of this doc id (how a selection in the page's address is found again). */
  doc?: number;
}

export const SAMPLE_PAGE_MAX = 500;

export interface ChoiceView {
  /** The continuation scored for this choice. */
  continuation: string;
  logprob: number;
  isGreedy: boolean;
  /** Highest log-likelihood: the choice `acc` takes. */
  chosen: boolean;
  gold: boolean;
}

export interface SampleView {
  /** Line number in the sample log (0-based), stable across filters. */
  line: number;
  docId: number;
  filter: string;
  prompt: string;
  /**
   * The start of the doc's own text in the prompt, after a description and few-shot examples where they
   * can be told apart (question-text.ts), whitespace collapsed: what the sample list shows.
   */
  question: string;
  target: string;
  /** Each request's raw response, as text. */
  responses: string[];
  filteredResponse: string;
  /** Present for log-likelihood tasks (multiple choice). */
  choices: ChoiceView[] | null;
  metrics: Record<string, number | boolean | string | null>;
  /** Whether the first metric is 1/true (correct), 0/false (incorrect); null when it isn't 0/1. */
  correct: boolean | null;
  error: string | null;
  doc: unknown;
  /** `llm_judge` metrics: each judge call (each juror's, each pairwise order's); empty when none. */
  judge: JudgeCallView[];
}

/** One judge call of a sample, as judge-view.ts shapes the sample line's `judge` entry. */
export interface JudgeCallView {
  metric: string;
  model: string;
  /** Pairwise judging: which response the judge saw first. */
  order: 'current-first' | 'baseline-first' | null;
  /** The system message, when the judge was sent a chat. */
  system: string | null;
  /** The rubric as rendered and sent (the user message of a chat). */
  user: string;
  /** The judge's answer as written; null for a log-likelihood verdict or a failed request. */
  raw: string | null;
  /** A log-likelihood verdict: each option's log-likelihood, the most likely one picked. */
  options: Array<{ option: string; logprob: number; picked: boolean }> | null;
  /** The parsed verdict (a score, a label, JSON as text); null when there was none. */
  verdict: string | null;
  score: number | null;
  /** Why there is no verdict. */
  error: string | null;
}

export interface SamplesPage {
  task: string;
  /** Lines in the sample log (so far, when `complete` is false). */
  total: number;
  /** Lines matching the query; equal to `total` without filters. */
  matched: number;
  /** False while the log is still being indexed (only unfiltered pages are served then). */
  complete: boolean;
  offset: number;
  items: SampleView[];
  metrics: string[];
  filters: string[];
}

export interface FlipCounts {
  bothRight: number;
  bothWrong: number;
  /** Baseline right, candidate wrong. */
  rightToWrong: number;
  /** Baseline wrong, candidate right. */
  wrongToRight: number;
}

export interface DiscordantSample {
  docId: number;
  prompt: string;
  target: string;
  baselineResponse: string;
  candidateResponse: string;
  baselineScore: number;
  candidateScore: number;
}

/** One row of the compare page: what `assay compare` reports for the row (the same engine). */
export interface TaskComparison {
  /** A task, or a group pooling its leaf tasks' pairs (as `assay compare` prints them). */
  kind: 'task' | 'group';
  /** The task's or group's name. */
  task: string;
  metric: string;
  filter: string;
  baselineRun: string;
  candidateRun: string;
  /** Docs scored in both sample logs, paired by doc_hash. */
  n: number;
  baselineMean: number;
  candidateMean: number;
  /** candidate − baseline. */
  difference: number;
  standardError: number;
  ci: [number, number];
  test: 'mcnemar' | 'permutation';
  pValue: number;
  /** Holm-adjusted across this candidate's task rows (its group rows form their own family), as `assay compare`. */
  adjustedPValue: number;
  /** Present when both runs' scores are 0/1. */
  flips: FlipCounts | null;
  discordantCount: number;
  /** The first discordant docs (at most COMPARE_DISCORDANT_MAX), with both responses; none in group rows. */
  discordant: DiscordantSample[];
}

export const COMPARE_DISCORDANT_MAX = 100;

export interface CompareResponse {
  runs: RunSummary[];
  baseline: string;
  rows: TaskComparison[];
  /** Why a task shared by the runs has no row (no sample logs, no shared docs, …). */
  skipped: { task: string; candidateRun: string; reason: string }[];
}

/**
 * The ★ of a task column on the Runs page: the one full run that `assay compare` finds significantly
 * better than every other full run on the task (best-runs.ts); none when no run is.
 */
export interface TaskStar {
  task: string;
  metric: string;
  filter: string;
  /** The starred run's id, or null. */
  run: string | null;
  /** The full runs with a score in the column (the star's run among them). */
  entrants: number;
  /** For a star: each other full run, and how it was beaten. */
  beaten: { run: string; method: 'paired' | 'intervals'; pValueAdjusted: number | null }[];
  /** Why the column has its star or none, in words (the ★'s and the header's tooltip). */
  note: string;
}

export interface StarsResponse {
  stars: TaskStar[];
}

/** Query string for GET /api/runs/:id/samples/:task, shared so the app and server agree. */
export function sampleQueryString(query: SampleQuery): string {
  const params = new URLSearchParams();
  params.set('offset', String(query.offset));
  params.set('limit', String(query.limit));
  if (query.correct && query.correct !== 'all') params.set('correct', query.correct);
  if (query.metric) params.set('metric', query.metric);
  if (query.min !== undefined && Number.isFinite(query.min)) params.set('min', String(query.min));
  if (query.max !== undefined && Number.isFinite(query.max)) params.set('max', String(query.max));
  if (query.text) params.set('text', query.text);
  if (query.filter) params.set('filter', query.filter);
  if (query.doc !== undefined) params.set('doc', String(query.doc));
  return params.toString();
}

export function isFilteredQuery(query: SampleQuery): boolean {
  return Boolean(
    (query.correct && query.correct !== 'all') ||
      query.min !== undefined ||
      query.max !== undefined ||
      query.text ||
      query.filter ||
      query.doc !== undefined,
  );
}

/** A suite's folder (one holding suite.json, as `assay suite run` writes it) under a viewed directory. */
export interface SuiteListing {
  /** Stable, opaque id (a hash of the folder's path). */
  id: string;
  name: string;
  /** The folder relative to the viewed directory it was found under; `.` when it is that directory. */
  label: string;
  root: number;
  /** The viewed directory is this suite's folder (`assay view suites/NAME`): the app opens on it. */
  isRoot: boolean;
  version: string;
  description: string | null;
  models: string[];
  taskSets: string[];
  /** summary.json: read through the contract, absent (not summarized yet), or not a summary. */
  summary: 'ready' | 'absent' | 'invalid';
}

export interface SuitesResponse {
  suites: SuiteListing[];
  /** suite.json files that are not suite records: shown, never silently dropped. */
  problems: { file: string; message: string }[];
}

/** A finished cell's run: a normal run folder, shown by the Run, Samples and Compare pages. */
export interface SuiteCellRun {
  model: string;
  taskSet: string;
  run: RunSummary;
}

/**
 * summary.json without its head-to-head matrices: what the leaderboard draws. The matrices are most of the
 * file (a 20-model × 60-task suite: 11,400 pairs, nine tenths of its 5 MB) and only a drill-down shows
 * one, so each is fetched when it is (GET /api/suites/:id/head-to-head/:scope/:name).
 */
export type SuiteLeaderboard = Omit<SuiteSummary, 'head_to_head'>;

export type { HeadToHead };

export interface SuiteDetail {
  suite: SuiteListing;
  /** Task set → its leaf tasks, in run order (suite.json). */
  taskSets: Record<string, string[]>;
  /** Scenario group → its leaf tasks (suite.json). */
  groups: Record<string, string[]>;
  /** summary.json as `assay suite summarize` wrote it, read through its schema; null when there is none. */
  summary: SuiteLeaderboard | null;
  /** The head-to-head matrices the summary has, by scope and name (each fetched on its own). */
  headToHead: { scope: HeadToHead['scope']; name: string }[];
  /** Why there is no summary, with the command that makes it; null with a summary. */
  summaryProblem: string | null;
  /** Cells that finished after summary.json was written, when some did: the summary does not show them. */
  staleSummary: string | null;
  /** The run each cell recorded (cell.json's results file), where it is found under the viewed folder. */
  cellRuns: SuiteCellRun[];
}
