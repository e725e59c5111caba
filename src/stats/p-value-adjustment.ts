/**
 * Multiple-comparison adjustment of p-values across tasks. Holm (the default for `assay compare`)
 * controls the family-wise error rate without Bonferroni's loss of power; Benjamini-Hochberg controls the
 * false discovery rate; Benjamini-Yekutieli does so under any dependence. Adjusted values match
 * statsmodels `multipletests` (holm, bonferroni) and `scipy.stats.false_discovery_control` (bh, by), and
 * come back in the input order.
 */
import { badArgument } from './validate.js';

export type PValueAdjustment = 'holm' | 'bh' | 'by' | 'bonferroni';

export function adjustPValues(pValues: readonly number[], method: PValueAdjustment = 'holm'): number[] {
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) throw badArgument('adjustPValues', `p[${i}] must be in [0, 1], got ${p}`);
  });
  const m = pValues.length;
  const adjusted = new Array<number>(m);
  if (method === 'bonferroni') return pValues.map((p) => Math.min(1, p * m));
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a] - pValues[b]);
  if (method === 'holm') {
    // Step-down: the i-th smallest (0-based) is scaled by m − i, then made non-decreasing.
    let running = 0;
    order.forEach((index, rank) => {
      running = Math.max(running, Math.min(1, (m - rank) * pValues[index]));
      adjusted[index] = running;
    });
    return adjusted;
  }
  // Step-up: from the largest down, p·m/rank (times Σ1/i for BY), made non-increasing.
  let harmonic = 1;
  if (method === 'by') {
    harmonic = 0;
    for (let i = 1; i <= m; i++) harmonic += 1 / i;
  }
  let running = 1;
  for (let rank = m; rank >= 1; rank--) {
    const index = order[rank - 1];
    running = Math.min(running, (pValues[index] * m * harmonic) / rank);
    adjusted[index] = Math.min(1, running);
  }
  return adjusted;
}
