/**
 * Bootstrap standard errors for aggregations without a closed form (median, f1, mcc, perplexity, bleu…).
 *
 * Two modes:
 * - `lm-eval`: lm-eval's own procedure, draw for draw (`lm_eval/api/metrics.py` `bootstrap_stderr`):
 *   ⌊iterations / c⌋ chunks of c = min(1000, iterations) replicates, chunk i seeded `random.Random(i)`,
 *   each replicate `aggregate(rnd.choices(items, k=len(items)))`, the result the n − 1 sample stddev of the
 *   replicates. It reproduces lm-eval's number, and costs n CPython-compatible draws per replicate.
 * - `fast` (the default): the same estimator — the n − 1 sample stddev of `iterations` replicates, each a
 *   resample of n items with replacement — driven by a seeded xoshiro128** generator. A resample is
 *   represented by the multiplicity of each distinct item (an exact multinomial draw), so 0/1 scores cost
 *   one binomial draw per replicate. It is deterministic for a given seed but its replicates are not
 *   lm-eval's, so the stderr agrees with lm-eval's only up to Monte Carlo error (≈ stderr/√(2·iterations)).
 */
import { PythonRandom } from '../python/semantics/random.js';
import { sampleStddev } from './descriptive.js';
import { FastRandom } from './fast-random.js';
import { BinomialSampler, sampleMultinomial } from './multinomial-sampler.js';
import { badArgument } from './validate.js';

/** An aggregation over a list of per-item values, as lm-eval registers them. */
export type Aggregate<T> = (items: readonly T[]) => number;

/**
 * The same aggregation computed from distinct values and how many times each was drawn
 * (Σ counts = n). Supplying one lets the fast mode skip materializing each resample.
 */
export type CountAggregate<T> = (values: readonly T[], counts: Uint32Array) => number;

export interface LmEvalBootstrapOptions {
  mode: 'lm-eval';
}

export interface FastBootstrapOptions<T> {
  mode?: 'fast';
  /** Seed of the resampling generator; the same seed gives the same replicates. Default 0. */
  seed?: number;
  /** `aggregate` expressed over counts, e.g. `meanFromCounts`; without it each resample is materialized. */
  fromCounts?: CountAggregate<T>;
  /** Groups items into distinct values (default: the item itself, compared with SameValueZero). */
  key?: (item: T) => unknown;
}

export type BootstrapOptions<T> = LmEvalBootstrapOptions | FastBootstrapOptions<T>;

/** Mean from counts: Σ v·c / Σ c. */
export const meanFromCounts: CountAggregate<number> = (values, counts) => {
  let sum = 0;
  let n = 0;
  for (let j = 0; j < values.length; j++) {
    sum += values[j] * counts[j];
    n += counts[j];
  }
  return sum / n;
};

/** lm-eval's `median` (`sorted(arr)[len(arr) // 2]`, the upper middle value) from counts. */
export const upperMedianFromCounts: CountAggregate<number> = (values, counts) => {
  let n = 0;
  for (let j = 0; j < counts.length; j++) n += counts[j];
  const rank = Math.floor(n / 2);
  let seen = 0;
  for (let j = 0; j < values.length; j++) {
    seen += counts[j];
    if (rank < seen) return values[j];
  }
  return Number.NaN;
};

/**
 * Median from counts, as Python's `statistics.median` computes it (assay's `true_median`): the middle
 * value, or the mean of the two middle values for an even count. `values` must be sorted ascending, which
 * `bootstrapReplicates` guarantees for numbers.
 */
export const medianFromCounts: CountAggregate<number> = (values, counts) => {
  let n = 0;
  for (let j = 0; j < counts.length; j++) n += counts[j];
  const lowRank = Math.floor((n - 1) / 2);
  const highRank = Math.floor(n / 2);
  let seen = 0;
  let low = Number.NaN;
  for (let j = 0; j < values.length; j++) {
    const next = seen + counts[j];
    if (Number.isNaN(low) && lowRank < next) low = values[j];
    if (highRank < next) return (low + values[j]) / 2;
    seen = next;
  }
  return Number.NaN;
};

/**
 * Bootstrap standard error of `aggregate(items)`. NaN when lm-eval would report "N/A": fewer than two items
 * or fewer than one iteration.
 */
export function bootstrapStderr<T>(
  aggregate: Aggregate<T>,
  items: readonly T[],
  iterations: number,
  options: BootstrapOptions<T> = {},
): number {
  if (items.length < 2 || iterations < 1) return Number.NaN;
  return sampleStddev(bootstrapReplicates(aggregate, items, iterations, options));
}

/** The replicates behind `bootstrapStderr`, for percentile and BCa intervals. */
export function bootstrapReplicates<T>(
  aggregate: Aggregate<T>,
  items: readonly T[],
  iterations: number,
  options: BootstrapOptions<T> = {},
): Float64Array {
  if (!Number.isInteger(iterations) || iterations < 1) {
    throw badArgument('bootstrapReplicates', `iterations must be a positive integer, got ${iterations}`);
  }
  if (items.length === 0) throw badArgument('bootstrapReplicates', 'needs at least one item');
  if (options.mode === 'lm-eval') return lmEvalReplicates(aggregate, items, iterations);
  return fastReplicates(aggregate, items, iterations, options);
}

function lmEvalReplicates<T>(aggregate: Aggregate<T>, items: readonly T[], iterations: number): Float64Array {
  const chunkSize = Math.min(1000, iterations);
  // lm-eval runs `iters // chunk_size` whole chunks, so e.g. 1,500 iterations give 1,000 replicates.
  const chunks = Math.floor(iterations / chunkSize);
  const replicates = new Float64Array(chunks * chunkSize);
  let r = 0;
  for (let chunk = 0; chunk < chunks; chunk++) {
    const random = new PythonRandom(chunk);
    for (let j = 0; j < chunkSize; j++) replicates[r++] = aggregate(random.choices(items, items.length));
  }
  return replicates;
}

/** Above this many distinct values per item, counting n index draws beats D conditional binomials. */
const INDEX_DRAWS_PER_BINOMIAL = 64;

function fastReplicates<T>(
  aggregate: Aggregate<T>,
  items: readonly T[],
  iterations: number,
  options: FastBootstrapOptions<T>,
): Float64Array {
  const n = items.length;
  const { values, itemToValue, multiplicities } = groupDistinct(items, options.key);
  const distinct = values.length;
  const random = new FastRandom(options.seed ?? 0);
  const sampler = new BinomialSampler(random);
  const counts = new Uint32Array(distinct);
  const replicates = new Float64Array(iterations);
  const useBinomials = distinct * INDEX_DRAWS_PER_BINOMIAL <= n;
  const materialized: T[] = new Array(n);
  for (let r = 0; r < iterations; r++) {
    if (useBinomials) {
      sampleMultinomial(sampler, n, multiplicities, n, counts);
    } else {
      counts.fill(0);
      random.countUniformDraws(n, n, itemToValue, counts);
    }
    if (options.fromCounts) {
      replicates[r] = options.fromCounts(values, counts);
    } else {
      // Items come out grouped by value rather than in draw order; lm-eval's aggregations are all
      // order-free (means, medians, corpus scores), so the statistic is the same.
      let position = 0;
      for (let j = 0; j < distinct; j++)
        for (let c = counts[j]; c > 0; c--) materialized[position++] = values[j];
      replicates[r] = aggregate(materialized);
    }
  }
  return replicates;
}

interface DistinctValues<T> {
  /** Distinct values; numbers are sorted ascending (NaN last) so count aggregates such as the median work. */
  values: T[];
  itemToValue: Uint32Array;
  multiplicities: Float64Array;
}

function groupDistinct<T>(items: readonly T[], key?: (item: T) => unknown): DistinctValues<T> {
  const allNumbers = key === undefined && items.every((item) => typeof item === 'number');
  const order = items.map((_, i) => i);
  if (allNumbers) {
    const numbers = items as unknown as readonly number[];
    order.sort((a, b) => compareNumbers(numbers[a], numbers[b]));
  }
  const indexByKey = new Map<unknown, number>();
  const values: T[] = [];
  const itemToValue = new Uint32Array(items.length);
  const counted: number[] = [];
  for (const i of order) {
    const item = items[i];
    const itemKey = key ? key(item) : item;
    let index = indexByKey.get(itemKey);
    if (index === undefined) {
      index = values.length;
      indexByKey.set(itemKey, index);
      values.push(item);
      counted.push(0);
    }
    itemToValue[i] = index;
    counted[index]++;
  }
  return { values, itemToValue, multiplicities: Float64Array.from(counted) };
}

function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return a - b;
}
