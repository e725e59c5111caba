/** A jury of judges: how its jurors' scores make one score. */
/**
 * A jury's score from its jurors' scores: their mean, or the score most of them gave (a tie has no
 * majority and errors the sample). One judge's score is its own.
 */
export function combineScores(
  scores: readonly number[],
  aggregate: 'mean' | 'majority',
  jury: boolean,
): number | { failure: string } {
  if (!jury) return scores[0];
  if (aggregate === 'mean') return scores.reduce((sum, score) => sum + score, 0) / scores.length;
  const counts = new Map<number, number>();
  for (const score of scores) counts.set(score, (counts.get(score) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const leaders = [...counts].filter(([, count]) => count === top).map(([score]) => score);
  if (leaders.length > 1) return { failure: `jury tie: no majority among the scores ${scores.join(', ')}` };
  return leaders[0];
}
