/**
 * Docs several models all scored on one task: the key (doc_hash#occurrence) is in every model's scores.
 * The summary's paired statistics (rank intervals, win-rate intervals, head-to-head) use only these.
 */

/** The keys every score map holds, in the first map's order. */
export function sharedKeys(scores: ReadonlyArray<ReadonlyMap<string, number>>): string[] {
  if (scores.length === 0) return [];
  const [first, ...rest] = scores;
  return [...first.keys()].filter((key) => rest.every((other) => other.has(key)));
}

/** Each model's scores on `keys`, in that order. */
export function alignedScores(
  scores: ReadonlyArray<ReadonlyMap<string, number>>,
  keys: readonly string[],
): Float64Array[] {
  return scores.map((map) => Float64Array.from(keys, (key) => map.get(key) as number));
}

export function meanOf(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

/** Competition ranks (1 = best; equal values share the better rank). */
export function pointRanks(values: readonly number[], higherIsBetter: boolean): number[] {
  return values.map(
    (value) => 1 + values.filter((other) => (higherIsBetter ? other > value : other < value)).length,
  );
}
