/**
 * Krippendorff's α for any number of raters, missing values and four levels of measurement, computed
 * from the coincidence matrix as in Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability"
 * (https://repository.upenn.edu/asc_papers/43):
 *
 * - o_ck = Σ_u (number of ordered pairs of values (c, k) from different raters in unit u) / (m_u − 1),
 *   over the units with m_u ≥ 2 values (a unit one rater alone coded is not pairable and is left out);
 * - n_c = Σ_k o_ck, n = Σ_c n_c;
 * - α = 1 − (n − 1) · Σ o_ck δ²_ck / Σ n_c n_k δ²_ck,
 *
 * with δ² the level's difference function: nominal 1 for c ≠ k; ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)²
 * over the ordered values; interval (c − k)²; ratio ((c − k)/(c + k))². NaN when the expected
 * disagreement is 0 (all pairable values are one value), where α is 0/0.
 */
import { type Category, sortedCategories } from './category-order.js';
import { badArgument } from './validate.js';

export type MeasurementLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';

/** A rater's value for a unit, or null / undefined when that rater did not rate it. */
export type Rating = Category | null | undefined;

export interface KrippendorffAlphaOptions {
  level?: MeasurementLevel;
  /**
   * The values in order, for the ordinal level over strings (default: the distinct values seen, sorted).
   * Interval and ratio need numbers.
   */
  values?: readonly Category[];
}

export interface KrippendorffAlpha {
  alpha: number;
  level: MeasurementLevel;
  /** Pairable values: the values in units that at least two raters coded. */
  pairableValues: number;
  /** Units with at least two values. */
  pairableUnits: number;
  observedDisagreement: number;
  expectedDisagreement: number;
}

/** `ratings[rater][unit]`: one row per rater, one column per unit, missing values null or undefined. */
export function krippendorffAlpha(
  ratings: readonly (readonly Rating[])[],
  options: KrippendorffAlphaOptions = {},
): KrippendorffAlpha {
  const where = 'krippendorffAlpha';
  const level = options.level ?? 'nominal';
  if (ratings.length < 2) throw badArgument(where, `needs at least 2 raters, got ${ratings.length}`);
  const units = Math.max(...ratings.map((row) => row.length));
  const present: Category[] = [];
  for (const row of ratings)
    for (const value of row) if (value !== null && value !== undefined) present.push(value);
  const values = options.values ?? sortedCategories(present);
  const index = new Map<Category, number>(values.map((value, i) => [value, i]));
  for (const value of present) {
    if (!index.has(value)) throw badArgument(where, `value ${JSON.stringify(value)} is not in \`values\``);
  }
  if ((level === 'interval' || level === 'ratio') && values.some((value) => typeof value !== 'number')) {
    throw badArgument(where, `the ${level} level needs numeric values`);
  }
  const v = values.length;
  const coincidences = new Float64Array(v * v);
  let pairableUnits = 0;
  const counts = new Float64Array(v);
  for (let u = 0; u < units; u++) {
    counts.fill(0);
    let m = 0;
    for (const row of ratings) {
      const value = row[u];
      if (value === null || value === undefined) continue;
      counts[index.get(value) as number]++;
      m++;
    }
    if (m < 2) continue;
    pairableUnits++;
    for (let c = 0; c < v; c++) {
      if (counts[c] === 0) continue;
      for (let k = 0; k < v; k++) {
        const pairs = c === k ? counts[c] * (counts[c] - 1) : counts[c] * counts[k];
        coincidences[c * v + k] += pairs / (m - 1);
      }
    }
  }
  const marginals = new Float64Array(v);
  for (let c = 0; c < v; c++) for (let k = 0; k < v; k++) marginals[c] += coincidences[c * v + k];
  let n = 0;
  for (let c = 0; c < v; c++) n += marginals[c];
  const delta = differenceFunction(level, values, marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < v; c++)
    for (let k = 0; k < v; k++) {
      const d = delta(c, k);
      observed += coincidences[c * v + k] * d;
      expected += marginals[c] * marginals[k] * d;
    }
  const observedDisagreement = n > 0 ? observed / n : Number.NaN;
  const expectedDisagreement = n > 1 ? expected / (n * (n - 1)) : Number.NaN;
  const alpha = expectedDisagreement > 0 ? 1 - observedDisagreement / expectedDisagreement : Number.NaN;
  return { alpha, level, pairableValues: n, pairableUnits, observedDisagreement, expectedDisagreement };
}

function differenceFunction(
  level: MeasurementLevel,
  values: readonly Category[],
  marginals: Float64Array,
): (c: number, k: number) => number {
  if (level === 'nominal') return (c, k) => (c === k ? 0 : 1);
  if (level === 'ordinal') {
    // Cumulative marginals make Σ_{g=c..k} n_g an O(1) difference.
    const cumulative = new Float64Array(marginals.length + 1);
    for (let g = 0; g < marginals.length; g++) cumulative[g + 1] = cumulative[g] + marginals[g];
    return (c, k) => {
      const low = Math.min(c, k);
      const high = Math.max(c, k);
      return (cumulative[high + 1] - cumulative[low] - (marginals[c] + marginals[k]) / 2) ** 2;
    };
  }
  const numbers = values as readonly number[];
  if (level === 'interval') return (c, k) => (numbers[c] - numbers[k]) ** 2;
  return (c, k) => {
    const sum = numbers[c] + numbers[k];
    return sum === 0 ? 0 : ((numbers[c] - numbers[k]) / sum) ** 2;
  };
}
