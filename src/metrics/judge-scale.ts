/**
 * The range an `llm_judge` metric's per-doc scores can take, from its (already validated) `judge` block:
 * a score verdict's [min, max], a label verdict's lowest and highest label score, a JSON verdict's
 * `minimum`/`maximum` of its score field when the schema gives both, [0, 1] for pairwise judging (win 1, tie
 * ½, loss 0). A 0/1 interval (Wilson) is right only when the scale lies in [0, 1]: on a 1–5 rubric a judge
 * that answers 1 every time gives scores that are all 1, which are not a proportion. Reads the plain block
 * (no schema), so aggregation does not load the judge's config module.
 */
type Block = Record<string, unknown>;

const isBlock = (value: unknown): value is Block =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** [lowest, highest] score of a judge block, or undefined when the block does not bound it. */
export function judgeScoreRange(judge: unknown): [number, number] | undefined {
  if (!isBlock(judge)) return undefined;
  if (judge.mode === 'pairwise') return [0, 1];
  const verdict = judge.verdict;
  if (!isBlock(verdict)) return undefined;
  if (verdict.type === 'score' && typeof verdict.min === 'number' && typeof verdict.max === 'number')
    return [verdict.min, verdict.max];
  if (verdict.type === 'label' && isBlock(verdict.labels)) {
    const scores = Object.values(verdict.labels).filter(
      (score): score is number => typeof score === 'number',
    );
    return scores.length > 0 ? [Math.min(...scores), Math.max(...scores)] : undefined;
  }
  if (verdict.type === 'json' && isBlock(verdict.schema) && typeof verdict.field === 'string') {
    const properties = verdict.schema.properties;
    const field = isBlock(properties) ? properties[verdict.field] : undefined;
    if (isBlock(field) && typeof field.minimum === 'number' && typeof field.maximum === 'number')
      return [field.minimum, field.maximum];
  }
  return undefined;
}

/**
 * Whether the scores of a metric judged by `judge` (a judge block, or a results.json judge report: both carry
 * `mode` and `verdict`) may be read as 0/1 proportions; `undefined`, a metric no judge scores, may.
 */
export function proportionScale(judge: unknown): boolean {
  if (judge === undefined) return true;
  const range = judgeScoreRange(judge);
  return range !== undefined && range[0] >= 0 && range[1] <= 1;
}
