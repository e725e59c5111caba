import type { ScoredDoc } from '../evaluate/score.js';
import type { LeaderboardLine } from '../results/leaderboard.js';
import type { SampleLine } from '../results/sample-line.js';

/**
 * What the leaderboard reads of a sample line: its filter, metric names and values, and whether it
 * errored or timed out; the doc id, target and filtered answers only when it lists examples. A run keeps
 * one per doc until the leaderboard is built, so nothing else of the line (hashes, few-shot ids) is kept.
 */
export function leaderboardLine(line: SampleLine, includePerExample: boolean): LeaderboardLine {
  const kept: LeaderboardLine = {
    doc_id: line.doc_id,
    filter: line.filter,
    metrics: line.metrics,
    target: includePerExample ? line.target : null,
    filtered_resps: includePerExample ? line.filtered_resps : [],
  };
  if (line.error !== undefined) kept.error = line.error;
  if (line.timed_out !== undefined) kept.timed_out = line.timed_out;
  for (const metric of line.metrics) kept[metric] = line[metric];
  return kept;
}

// Read only by the leaderboard: lines whose docs share a metrics record (chunked-task.ts) share its names.
const metricNames = new WeakMap<object, string[]>();
const NO_ANSWERS = Object.freeze([]) as unknown as unknown[];

/**
 * leaderboardLine of a scored doc's sample line without building the line, when the leaderboard lists
 * no examples (no target or answers): the same fields, read from the scored doc as sampleLine would.
 */
export function leaderboardLineOfScored(
  doc: Pick<ScoredDoc, 'docId' | 'filter' | 'metrics' | 'error' | 'timedOut'>,
): LeaderboardLine {
  let names = metricNames.get(doc.metrics);
  if (!names) {
    names = Object.keys(doc.metrics);
    metricNames.set(doc.metrics, names);
  }
  const kept: LeaderboardLine = {
    doc_id: doc.docId,
    filter: doc.filter,
    metrics: names,
    target: null,
    filtered_resps: NO_ANSWERS,
  };
  if (doc.error !== undefined) kept.error = doc.error;
  if (doc.timedOut) kept.timed_out = true;
  for (const [metric, value] of Object.entries(doc.metrics)) kept[metric] = value;
  return kept;
}
