/**
 * Whether a run's numbers cover every doc of every task, and if not, why: a `limit` or `samples` subset,
 * one shard of a sharded run, errored samples, or docs timed out under a latency cap (`maxLatencyS`).
 * Read from a results file (assay's or lm-eval's) and, for runs that predate the `errors` block, the
 * sample logs. What travels with a run's numbers when they leave assay (export) says this.
 */
import { erroredSamplesOf } from './compare/errored-runs.js';
import type { LoadedRun } from './read-run.js';

export interface PartialRun {
  /** True when the numbers cover less than every doc of every task. */
  partial: boolean;
  /** Why, one sentence part per cause; empty when the run is whole. */
  reasons: string[];
  /** Leaf task → errored samples, every leaf task listed; absent when the run cannot tell (no record, no sample logs). */
  errors?: Record<string, number>;
  /** Leaf task → docs timed out, every leaf task listed; present when the run had a latency cap. */
  timeouts?: Record<string, number>;
  /** The cap, in seconds, when the run had one. */
  maxLatencyS?: number;
}

function listed(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([task, count]) => `${task}: ${count}`)
    .join(', ');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((total, count) => total + count, 0);
}

/** Every leaf task, with each task a count names but the run's n-samples does not. */
function withEveryTask(tasks: string[], counts: Record<string, number>): Record<string, number> {
  const all: Record<string, number> = {};
  for (const task of tasks) all[task] = counts[task] ?? 0;
  for (const [task, count] of Object.entries(counts)) all[task] = count;
  return all;
}

export function partialRunOf(run: Pick<LoadedRun, 'results' | 'sampleFiles'>): PartialRun {
  const { results } = run;
  const tasks = Object.keys(results['n-samples']);
  const reasons: string[] = [];

  const subset = Object.entries(results['n-samples'])
    .filter(([, counts]) => counts.effective < counts.original)
    .map(([task, counts]) => `${task}: ${counts.effective} of ${counts.original} docs`);
  const limit = results.config.limit;
  const shard = results.manifest?.shard;
  const docs = subset.length ? ` (${subset.join(', ')})` : '';
  if (typeof limit === 'number') reasons.push(`limit=${limit}${docs}`);
  if (shard) {
    // A shard's own slice of the docs is no `samples` choice of the user's.
    const slice = typeof limit === 'number' ? '' : subset.map((entry) => `${entry}; `).join('');
    reasons.push(`shard ${shard.index + 1} of ${shard.count} (${slice}merge the shards for the whole run)`);
  } else if (typeof limit !== 'number' && subset.length) {
    reasons.push(`a subset of the docs (\`samples\`)${docs}`);
  }

  const known = results.errors !== undefined || run.sampleFiles.size > 0;
  const errors = known ? withEveryTask(tasks, erroredSamplesOf(run)) : undefined;
  if (errors && sum(errors) > 0)
    reasons.push(`${count(sum(errors), 'errored sample')} in no metric (${listed(errors)})`);

  const cap = results.timeouts;
  const timeouts = cap ? withEveryTask(tasks, cap.by_task) : undefined;
  if (cap && timeouts && sum(timeouts) > 0)
    reasons.push(
      `${count(sum(timeouts), 'doc')} timed out at max_latency_s=${cap.max_latency_s}, in no metric (${listed(timeouts)})`,
    );

  if (results.partial === true && reasons.length === 0)
    reasons.push('the results file marks the run partial');
  return {
    partial: reasons.length > 0,
    reasons,
    ...(errors ? { errors } : {}),
    ...(timeouts ? { timeouts } : {}),
    ...(cap ? { maxLatencyS: cap.max_latency_s } : {}),
  };
}
