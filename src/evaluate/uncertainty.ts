import { bootstrapStderr } from '../stats/bootstrap.js';
import { isBinary, meanStderr } from '../stats/descriptive.js';
import { studentTQuantile } from '../stats/distributions.js';
import { wilsonInterval } from '../stats/intervals.js';
import type { AggregationFunction } from '../metrics/types.js';

export interface Interval {
  lo: number;
  hi: number;
  level: number;
  method: 'wilson' | 't' | 'normal';
}

/** Aggregations whose stderr lm-eval bootstraps (api/metrics.py stderr_for_metric). */
const BOOTSTRAPPED = new Set(['median', 'matthews_corrcoef', 'f1', 'perplexity', 'bleu', 'chrf', 'ter', 'nanmean']);
/** lm-eval caps these at 100 iterations: each replicate is a whole corpus-level score. */
const CAPPED = new Set(['bleu', 'chrf', 'ter']);

export function stderrFor(
  aggregation: string,
  fn: AggregationFunction,
  items: unknown[],
  bootstrapIters: number,
): number | 'N/A' {
  if (bootstrapIters <= 0 || items.length < 2) return 'N/A';
  if (aggregation === 'mean') {
    const values = items.map(Number);
    const se = meanStderr(values);
    return Number.isFinite(se) ? se : 'N/A';
  }
  if (BOOTSTRAPPED.has(aggregation)) {
    const iters = CAPPED.has(aggregation) ? Math.min(bootstrapIters, 100) : bootstrapIters;
    return bootstrapStderr(fn, items, iters);
  }
  return 'N/A';
}

/**
 * A 95% interval chosen by metric type: Wilson for 0/1 accuracies, a t-interval for other means, and
 * value ± z·stderr for bootstrapped statistics and group means.
 */
export function intervalFor(aggregation: string, value: number, stderr: number | 'N/A', items: unknown[]): Interval | undefined {
  const level = 0.95;
  if (aggregation === 'mean' && items.length > 0) {
    const values = items.map(Number);
    if (isBinary(values)) {
      const successes = values.reduce((a, b) => a + b, 0);
      const [lo, hi] = wilsonInterval(successes, values.length, level);
      return { lo, hi, level, method: 'wilson' };
    }
    if (typeof stderr !== 'number') return undefined;
    const t = studentTQuantile(1 - (1 - level) / 2, values.length - 1);
    return { lo: value - t * stderr, hi: value + t * stderr, level, method: 't' };
  }
  if (typeof stderr !== 'number') return undefined;
  const z = 1.959963984540054;
  return { lo: value - z * stderr, hi: value + z * stderr, level, method: 'normal' };
}
