/**
 * lm-eval's aggregations that are plain arithmetic (lm_eval/api/metrics.py). Corpus-level ones (bleu, chrf,
 * ter, f1, matthews_corrcoef) live beside their metrics.
 */
import { AssayError } from '../errors.js';
import { numpySum, pythonSum } from './numeric.js';

function numbers(aggregation: string, items: readonly unknown[], allowEmpty = false): number[] {
  if (items.length === 0 && !allowEmpty) {
    throw new AssayError('scoring_error', `aggregation ${aggregation} needs at least one item`);
  }
  return items.map((item) => {
    if (typeof item === 'number') return item;
    if (typeof item === 'boolean') return item ? 1 : 0;
    throw new AssayError(
      'scoring_error',
      `aggregation ${aggregation} expects numbers, got ${JSON.stringify(item)}`,
    );
  });
}

function pairs(aggregation: string, items: readonly unknown[]): [number[], number[]] {
  if (items.length === 0)
    throw new AssayError('scoring_error', `aggregation ${aggregation} needs at least one item`);
  const first: number[] = [];
  const second: number[] = [];
  for (const item of items) {
    if (
      !Array.isArray(item) ||
      item.length !== 2 ||
      typeof item[0] !== 'number' ||
      typeof item[1] !== 'number'
    ) {
      throw new AssayError(
        'scoring_error',
        `aggregation ${aggregation} expects (number, number) pairs, got ${JSON.stringify(item)}`,
      );
    }
    first.push(item[0]);
    second.push(item[1]);
  }
  return [first, second];
}

/** `sum(arr) / len(arr)`, added left to right as CPython < 3.12 does. */
export function mean(items: unknown[]): number {
  const values = numbers('mean', items);
  return pythonSum(values) / values.length;
}

/**
 * lm-eval's `median` (lm_eval/api/metrics.py at 4e7e0d47): `sorted(arr)[len(arr) // 2]`, the upper middle
 * value, never an average of two. Kept under lm-eval's name so that the numbers compare; for an even count
 * it is not the statistical median (`trueMedian`).
 */
export function median(items: unknown[]): number {
  const values = numbers('median', items).sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
}

/** The statistical median, as Python's `statistics.median`: the mean of the two middle values for an even count. */
export function trueMedian(items: unknown[]): number {
  const values = numbers('true_median', items).sort((a, b) => a - b);
  const middle = Math.floor(values.length / 2);
  return values.length % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

/** `exp(-mean(loglikelihoods))` */
export function perplexity(items: unknown[]): number {
  return Math.exp(-mean(items));
}

/** `exp(-Σll / Σn)` over (loglikelihood, words or bytes) pairs. */
export function weightedPerplexity(items: unknown[]): number {
  const [logLikelihoods, counts] = pairs('weighted_perplexity', items);
  return Math.exp(-(pythonSum(logLikelihoods) / pythonSum(counts)));
}

/** `-(Σll / Σbytes) / ln 2` over (loglikelihood, bytes) pairs. */
export function bitsPerByte(items: unknown[]): number {
  const [logLikelihoods, bytes] = pairs('bits_per_byte', items);
  return -(pythonSum(logLikelihoods) / pythonSum(bytes)) / Math.log(2);
}

/** `np.nanmean`, and NaN when there are no items or all are NaN (lm-eval's guard). */
export function nanmean(items: unknown[]): number {
  const values = numbers('nanmean', items, true);
  const kept = values.filter((value) => !Number.isNaN(value));
  if (kept.length === 0) return Number.NaN;
  // numpy replaces NaN with 0 and sums the whole array pairwise, then divides by the non-NaN count.
  return numpySum(values.map((value) => (Number.isNaN(value) ? 0 : value))) / kept.length;
}

/**
 * lm-eval's `brier_score` over (gold index, class probabilities) items:
 * `np.mean(np.sum((probs - one_hot(gold)) ** 2, axis=1))`.
 */
export function brierScore(items: unknown[]): number {
  if (items.length === 0)
    throw new AssayError('scoring_error', 'aggregation brier_score needs at least one item');
  let classes: number | undefined;
  const rows = items.map((item) => {
    const [gold, probabilities] = Array.isArray(item) ? item : [];
    if (
      !Number.isInteger(gold) ||
      !Array.isArray(probabilities) ||
      !probabilities.every((p) => typeof p === 'number')
    ) {
      throw new AssayError(
        'scoring_error',
        `aggregation brier_score expects (gold index, probabilities) items, got ${JSON.stringify(item)}`,
      );
    }
    classes ??= probabilities.length;
    if (probabilities.length !== classes) {
      throw new AssayError(
        'scoring_error',
        `aggregation brier_score: every item needs ${classes} probabilities, got ${probabilities.length}`,
      );
    }
    // numpy's np.eye(n)[gold] wraps negative indexes and rejects the rest.
    const goldIndex = (gold as number) < 0 ? (gold as number) + classes : (gold as number);
    if (goldIndex < 0 || goldIndex >= classes) {
      throw new AssayError(
        'scoring_error',
        `aggregation brier_score: gold ${gold} is not a class index below ${classes}`,
      );
    }
    return numpySum(
      (probabilities as number[]).map((p, index) => {
        const difference = p - (index === goldIndex ? 1 : 0);
        return difference * difference;
      }),
    );
  });
  return numpySum(rows) / rows.length;
}

/** `--predict_only` replaces every metric with `bypass`, whose aggregation is the constant 999. */
export function bypass(): number {
  return 999;
}
