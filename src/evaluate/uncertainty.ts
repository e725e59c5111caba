import type { AggregationFunction } from '../metrics/types.js';
import { bootstrapInterval } from '../stats/bootstrap-interval.js';
import {
  bootstrapReplicates,
  bootstrapStderr,
  medianFromCounts,
  upperMedianFromCounts,
} from '../stats/bootstrap-stderr.js';
import { isBinary, meanStderr } from '../stats/descriptive.js';
import { proportionConfidenceInterval } from '../stats/proportion-interval.js';
import { tInterval } from '../stats/t-interval.js';

export interface Interval {
  lo: number;
  hi: number;
  level: number;
  method: 'wilson' | 't' | 'percentile-bootstrap' | 'normal';
}

/** Aggregations whose stderr lm-eval bootstraps (api/metrics.py stderr_for_metric). */
const BOOTSTRAPPED = new Set([
  'median',
  'matthews_corrcoef',
  'f1',
  'perplexity',
  'bleu',
  'chrf',
  'ter',
  'nanmean',
  // assay's statistical median, bootstrapped like lm-eval's.
  'true_median',
]);
/** lm-eval caps these at 100 iterations: each replicate is a whole corpus-level score. */
const CAPPED = new Set(['bleu', 'chrf', 'ter']);
/**
 * A task's own aggregation (TypeScript tasks) gets a bootstrap stderr too, where lm-eval reports "N/A";
 * capped because each replicate runs user code over the whole sample.
 */
const CUSTOM_ITERS = 1000;
/** Intervals by percentile bootstrap use at most this many replicates (the stderr uses --bootstrap_iters). */
const INTERVAL_ITERS = 2000;

function bootstrapOptions(aggregation: string) {
  // lm-eval's median is the upper middle value; the counts form must agree with the aggregation itself.
  if (aggregation === 'median') return { fromCounts: upperMedianFromCounts };
  if (aggregation === 'true_median') return { fromCounts: medianFromCounts };
  return {};
}

/**
 * lm-eval's stderr rules: sample std / √n for means, a seeded bootstrap for the aggregations lm-eval
 * bootstraps, "N/A" for everything else, for fewer than two items, and when bootstrap_iters ≤ 0.
 */
export function stderrFor(
  aggregation: string,
  fn: AggregationFunction,
  items: unknown[],
  bootstrapIters: number,
): number | 'N/A' {
  if (bootstrapIters <= 0 || items.length < 2) return 'N/A';
  if (aggregation === 'mean') {
    const se = meanStderr(items.map(Number));
    return Number.isFinite(se) ? se : 'N/A';
  }
  if (BOOTSTRAPPED.has(aggregation)) {
    const iters = CAPPED.has(aggregation) ? Math.min(bootstrapIters, 100) : bootstrapIters;
    const se = bootstrapStderr(
      fn as (items: readonly unknown[]) => number,
      items,
      iters,
      bootstrapOptions(aggregation) as object,
    );
    return Number.isFinite(se) ? se : 'N/A';
  }
  if (aggregation === 'custom') {
    const se = bootstrapStderr(
      fn as (items: readonly unknown[]) => number,
      items,
      Math.min(bootstrapIters, CUSTOM_ITERS),
    );
    return Number.isFinite(se) ? se : 'N/A';
  }
  return 'N/A';
}

/**
 * A 95% interval chosen by metric type: Wilson for 0/1 accuracies, a t-interval for other means, a
 * percentile bootstrap for bootstrapped statistics, and value ± z·stderr for group means.
 */
export function intervalFor(
  aggregation: string,
  fn: AggregationFunction | undefined,
  value: number,
  stderr: number | 'N/A',
  items: unknown[],
): Interval | undefined {
  const level = 0.95;
  if (aggregation === 'mean' && items.length > 0) {
    const values = items.map(Number);
    if (isBinary(values)) {
      const successes = values.reduce((a, b) => a + b, 0);
      const interval = proportionConfidenceInterval(successes, values.length, {
        confidence: level,
        method: 'wilson',
      });
      return { lo: interval.low, hi: interval.high, level, method: 'wilson' };
    }
    if (values.length < 2) return undefined;
    const interval = tInterval(values, { confidence: level });
    return { lo: interval.low, hi: interval.high, level, method: 't' };
  }
  const bootstrapped = BOOTSTRAPPED.has(aggregation) || aggregation === 'custom';
  if (fn && bootstrapped && items.length >= 2 && typeof stderr === 'number') {
    const iters = CAPPED.has(aggregation) ? 100 : aggregation === 'custom' ? CUSTOM_ITERS : INTERVAL_ITERS;
    const replicates = bootstrapReplicates(
      fn as (items: readonly unknown[]) => number,
      items,
      iters,
      bootstrapOptions(aggregation) as object,
    );
    if (replicates.some((replicate) => Number.isNaN(replicate))) return undefined;
    const interval = bootstrapInterval(replicates, { confidence: level, method: 'percentile' });
    return { lo: interval.low, hi: interval.high, level, method: 'percentile-bootstrap' };
  }
  if (typeof stderr !== 'number') return undefined;
  const z = 1.959963984540054;
  return { lo: value - z * stderr, hi: value + z * stderr, level, method: 'normal' };
}
