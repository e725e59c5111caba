import type { AggregationFunction } from '../metrics/types.js';
import type { CiMethod } from '../results/results-file.js';
import { bootstrapInterval } from '../stats/bootstrap-interval.js';
import {
  bootstrapReplicates,
  bootstrapStderr,
  medianFromCounts,
  upperMedianFromCounts,
} from '../stats/bootstrap-stderr.js';
import { isBinary, meanStderr, sampleStddev } from '../stats/descriptive.js';
import { proportionConfidenceInterval } from '../stats/proportion-interval.js';
import { tInterval } from '../stats/t-interval.js';

export interface Interval {
  lo: number;
  hi: number;
  level: number;
  method: CiMethod;
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
  return 'N/A';
}

/**
 * assay's bootstrap of a custom aggregation (a function lm-eval does not bootstrap): its stderr from at
 * most 1,000 replicates, and a 95% percentile interval from 1,000. A resample the function cannot
 * aggregate (it raises, or gives no finite number) leaves both unknown, with the reason in `note`;
 * the aggregation's own value stands.
 */
export interface CustomBootstrap {
  stderr: number | null;
  iterations: number;
  interval?: Interval;
  note?: string;
}

export function customBootstrap(
  fn: AggregationFunction,
  items: unknown[],
  bootstrapIters: number,
): CustomBootstrap {
  if (bootstrapIters <= 0) return { stderr: null, iterations: 0, note: 'bootstrap_iters is 0' };
  if (items.length < 2) return { stderr: null, iterations: 0, note: 'fewer than 2 values' };
  const aggregate = fn as (items: readonly unknown[]) => number;
  const iterations = Math.min(bootstrapIters, CUSTOM_ITERS);
  let replicates: Float64Array;
  let intervalReplicates: Float64Array;
  try {
    replicates = bootstrapReplicates(aggregate, items, iterations);
    intervalReplicates =
      iterations === CUSTOM_ITERS ? replicates : bootstrapReplicates(aggregate, items, CUSTOM_ITERS);
  } catch (error) {
    const name = error instanceof Error ? error.name : 'error';
    return {
      stderr: null,
      iterations,
      note: `a bootstrap resample failed: ${name}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  return fromReplicates(replicates, intervalReplicates);
}

/** stderr and percentile interval of bootstrap replicates; unknown when a replicate is not finite. */
export function fromReplicates(replicates: Float64Array, intervalReplicates = replicates): CustomBootstrap {
  const iterations = replicates.length;
  const bad = replicates.findIndex((replicate) => !Number.isFinite(replicate));
  if (bad >= 0) {
    return {
      stderr: null,
      iterations,
      note: `bootstrap resample ${bad + 1} aggregates to ${replicates[bad]}`,
    };
  }
  if (iterations < 2) return { stderr: null, iterations, note: 'fewer than 2 bootstrap replicates' };
  const stderr = sampleStddev(Array.from(replicates));
  const result: CustomBootstrap = { stderr, iterations };
  if (!intervalReplicates.some((replicate) => Number.isNaN(replicate))) {
    const interval = bootstrapInterval(intervalReplicates, { confidence: 0.95, method: 'percentile' });
    result.interval = { lo: interval.low, hi: interval.high, level: 0.95, method: 'percentile-bootstrap' };
  }
  return result;
}

/**
 * A 95% interval chosen by metric type: Wilson for 0/1 accuracies (scores all 0 or 1, on a scale of [0, 1]), a t-interval for other means, a
 * percentile bootstrap for bootstrapped statistics, and value ± z·stderr for group means.
 */
export function intervalFor(
  aggregation: string,
  fn: AggregationFunction | undefined,
  value: number,
  stderr: number | 'N/A',
  items: unknown[],
  /** False when the scores are on a scale beyond [0, 1] (a 1–5 judge rubric): never a Wilson interval. */
  proportion = true,
): Interval | undefined {
  const level = 0.95;
  if (aggregation === 'mean' && items.length > 0) {
    const values = items.map(Number);
    if (proportion && isBinary(values)) {
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
  // A custom aggregation's interval comes with its bootstrap (customBootstrap), from the same replicates.
  if (aggregation === 'custom') return undefined;
  const bootstrapped = BOOTSTRAPPED.has(aggregation);
  if (fn && bootstrapped && items.length >= 2 && typeof stderr === 'number') {
    const iters = CAPPED.has(aggregation) ? 100 : INTERVAL_ITERS;
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
