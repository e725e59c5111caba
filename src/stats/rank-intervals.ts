/**
 * What simultaneous intervals on every pairwise difference say about ranks and win rates. A pair whose
 * interval excludes 0 is resolved (one model is better); the others may go either way. Then a model's
 * rank lies between 1 + (models resolved as better) and K − (models resolved as worse), and its win rate
 * in a column between (resolved as worse)/(K − 1) and (K − 1 − resolved as better)/(K − 1). When the
 * intervals cover together with probability 1 − α, so do all these bounds: a rank interval of one
 * position is a resolved rank, a wide one a tie the data cannot break (Al Mohamad et al. 2022's
 * simultaneous "ranking with confidence" construction).
 */

/** Index of the pair (i, j), i < j, among the K·(K−1)/2 pairs in order (0,1), (0,2), …, (1,2), … */
export function pairIndex(i: number, j: number, models: number): number {
  return i * models - (i * (i + 1)) / 2 + (j - i - 1);
}

/** Every pair (i, j) with i < j, in pairIndex order. */
export function allPairs(models: number): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < models; i++) for (let j = i + 1; j < models; j++) pairs.push([i, j]);
  return pairs;
}

/**
 * `outcome[i·K + j]`: 1 when model i is resolved as better than j, −1 when resolved as worse, 0 when not
 * resolved. `low[p]`, `high[p]` bound θⱼ − θᵢ for pair p = (i, j) in pairIndex order.
 */
export function pairOutcomes(
  models: number,
  low: ArrayLike<number>,
  high: ArrayLike<number>,
  higherIsBetter: boolean,
): Int8Array {
  const outcome = new Int8Array(models * models);
  for (const [p, [i, j]] of allPairs(models).entries()) {
    // jAbove: θⱼ − θᵢ > 0 for sure; jBelow: < 0 for sure.
    const jAbove = low[p] > 0;
    const jBelow = high[p] < 0;
    if (!jAbove && !jBelow) continue;
    const jBetter = jAbove === higherIsBetter;
    outcome[i * models + j] = jBetter ? -1 : 1;
    outcome[j * models + i] = jBetter ? 1 : -1;
  }
  return outcome;
}

export interface RankInterval {
  /** Best rank the data allow (1 = first). */
  best: number;
  worst: number;
}

export function rankIntervals(models: number, outcome: Int8Array): RankInterval[] {
  return Array.from({ length: models }, (_, i) => {
    let better = 0;
    let worse = 0;
    for (let j = 0; j < models; j++) {
      if (outcome[i * models + j] === -1) better++;
      else if (outcome[i * models + j] === 1) worse++;
    }
    return { best: 1 + better, worst: models - worse };
  });
}

/** The bounds of each model's win rate in one column (HELM's definition; a tie counts half). */
export function winRateBounds(models: number, outcome: Int8Array): Array<{ low: number; high: number }> {
  if (models < 2) return Array.from({ length: models }, () => ({ low: Number.NaN, high: Number.NaN }));
  return rankIntervals(models, outcome).map(({ best, worst }) => ({
    // Resolved as worse than i: K − worst of them; resolved as better: best − 1.
    low: (models - worst) / (models - 1),
    high: (models - 1 - (best - 1)) / (models - 1),
  }));
}
