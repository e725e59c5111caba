/**
 * Cohen's κ between two raters over the same items, unweighted or weighted for ordinal scales, as
 * scikit-learn's `cohen_kappa_score` defines it: with O the confusion matrix over the ordered categories,
 * E = outer(row sums, column sums) / n the table chance would give, and W the disagreement weights
 * (0 on the diagonal and 1 off it unweighted, |i − j| linear, (i − j)² quadratic, i and j the categories'
 * positions), κ = 1 − Σ W·O / Σ W·E. NaN when Σ W·E = 0 (both raters used one and the same category),
 * where κ is 0/0.
 */
import { type Category, sortedCategories } from './category-order.js';
import { badArgument, requireSameLength } from './validate.js';

export type KappaWeights = 'none' | 'linear' | 'quadratic';

export interface CohenKappaOptions {
  weights?: KappaWeights;
  /**
   * The categories in order. Default: the distinct values of both raters, sorted. Items whose value is
   * not listed are left out, as scikit-learn's `labels` does.
   */
  labels?: readonly Category[];
}

export function cohenKappa(
  raterA: readonly Category[],
  raterB: readonly Category[],
  options: CohenKappaOptions = {},
): number {
  const where = 'cohenKappa';
  requireSameLength(where, raterA, raterB, 'raterA and raterB');
  const labels = options.labels ?? sortedCategories([...raterA, ...raterB]);
  const weights = options.weights ?? 'none';
  const k = labels.length;
  const index = new Map<Category, number>(labels.map((label, i) => [label, i]));
  if (index.size !== k) throw badArgument(where, 'labels must be distinct');
  const observed = new Float64Array(k * k);
  let n = 0;
  for (let i = 0; i < raterA.length; i++) {
    const a = index.get(raterA[i]);
    const b = index.get(raterB[i]);
    if (a === undefined || b === undefined) continue;
    observed[a * k + b]++;
    n++;
  }
  if (n === 0) throw badArgument(where, 'needs at least one item rated with a listed label by both raters');
  const rows = new Float64Array(k);
  const columns = new Float64Array(k);
  for (let a = 0; a < k; a++)
    for (let b = 0; b < k; b++) {
      rows[a] += observed[a * k + b];
      columns[b] += observed[a * k + b];
    }
  let observedDisagreement = 0;
  let expectedDisagreement = 0;
  for (let a = 0; a < k; a++)
    for (let b = 0; b < k; b++) {
      const w = disagreementWeight(a, b, weights);
      observedDisagreement += w * observed[a * k + b];
      expectedDisagreement += (w * rows[a] * columns[b]) / n;
    }
  if (expectedDisagreement === 0) return Number.NaN;
  return 1 - observedDisagreement / expectedDisagreement;
}

function disagreementWeight(a: number, b: number, weights: KappaWeights): number {
  if (weights === 'linear') return Math.abs(a - b);
  if (weights === 'quadratic') return (a - b) ** 2;
  return a === b ? 0 : 1;
}
