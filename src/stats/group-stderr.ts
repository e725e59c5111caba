/**
 * Standard errors of a group score built from subtask scores (lm-eval `api/group.py`,
 * `evaluator_utils.consolidate_group_results`).
 *
 * lm-eval computes the group stderr with `pooled_sample_stderr` whatever `weight_by_size` says. That
 * formula is the pooled within-subtask variance over the total size: about the stratified standard error of
 * the size-weighted mean, Σ(nᵢ/N)²·seᵢ² (subtask sizes fixed). assay uses it, as lm-eval does, for
 * size-weighted groups. For an unweighted (macro) mean (1/k)·Σmᵢ of independent subtasks the variance is
 * Σseᵢ²/k², so assay reports √(Σseᵢ²)/k there, which is what lm-eval should report but does not: for small
 * subtasks averaged with large ones the pooled formula understates the uncertainty.
 */
import { badArgument, requireSameLength } from './validate.js';

/** lm-eval's `pooled_sample_stderr`: √( Σ(nᵢ−1)·seᵢ²·nᵢ / (Σnᵢ − k) / Σnᵢ ). */
export function lmEvalPooledStderr(stderrs: readonly number[], sizes: readonly number[]): number {
  checkGroup('lmEvalPooledStderr', stderrs, sizes);
  let numerator = 0;
  let total = 0;
  for (let i = 0; i < stderrs.length; i++) {
    numerator += (sizes[i] - 1) * stderrs[i] ** 2 * sizes[i];
    total += sizes[i];
  }
  return Math.sqrt(numerator / (total - stderrs.length) / total);
}

/** Stderr of the unweighted mean of k independent subtask scores: √(Σseᵢ²)/k. */
export function unweightedMeanStderr(stderrs: readonly number[]): number {
  if (stderrs.length === 0) throw badArgument('unweightedMeanStderr', 'needs at least one subtask');
  let sum = 0;
  for (const stderr of stderrs) sum += stderr ** 2;
  return Math.sqrt(sum) / stderrs.length;
}

/** Stderr of the size-weighted mean with subtask sizes held fixed (stratified): √(Σ(nᵢ/N)²·seᵢ²). */
export function stratifiedStderr(stderrs: readonly number[], sizes: readonly number[]): number {
  checkGroup('stratifiedStderr', stderrs, sizes);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let variance = 0;
  for (let i = 0; i < stderrs.length; i++) variance += (sizes[i] / total) ** 2 * stderrs[i] ** 2;
  return Math.sqrt(variance);
}

/**
 * The mean-stderr (n − 1 over √N) of all subtask items concatenated, recovered from each subtask's mean,
 * mean-stderr and size. Unlike the pooled formula it includes the spread between subtask means.
 */
export function concatenatedStderr(
  means: readonly number[],
  stderrs: readonly number[],
  sizes: readonly number[],
): number {
  checkGroup('concatenatedStderr', stderrs, sizes);
  requireSameLength('concatenatedStderr', means, sizes, 'means and sizes');
  let total = 0;
  let weighted = 0;
  for (let i = 0; i < sizes.length; i++) {
    total += sizes[i];
    weighted += means[i] * sizes[i];
  }
  const grandMean = weighted / total;
  let sumOfSquares = 0;
  for (let i = 0; i < sizes.length; i++) {
    // seᵢ²·nᵢ·(nᵢ − 1) is subtask i's Σ(x − mᵢ)²; add its offset from the grand mean.
    sumOfSquares += stderrs[i] ** 2 * sizes[i] * (sizes[i] - 1) + sizes[i] * (means[i] - grandMean) ** 2;
  }
  return Math.sqrt(sumOfSquares / (total - 1) / total);
}

/** The group score: Σmᵢnᵢ/Σnᵢ with `weightBySize`, else the plain mean of subtask scores (lm-eval's rule). */
export function groupMean(means: readonly number[], sizes: readonly number[], weightBySize: boolean): number {
  requireSameLength('groupMean', means, sizes, 'means and sizes');
  if (means.length === 0) throw badArgument('groupMean', 'needs at least one subtask');
  if (!weightBySize) return means.reduce((sum, value) => sum + value, 0) / means.length;
  let weighted = 0;
  let total = 0;
  for (let i = 0; i < means.length; i++) {
    weighted += means[i] * sizes[i];
    total += sizes[i];
  }
  return weighted / total;
}

export interface GroupStderr {
  stderr: number;
  method: 'lm-eval-pooled' | 'unweighted-mean';
}

/** The group stderr assay reports: lm-eval's pooled formula when weighting by size, √(Σseᵢ²)/k otherwise. */
export function groupStderr(
  stderrs: readonly number[],
  sizes: readonly number[],
  weightBySize: boolean,
): GroupStderr {
  return weightBySize
    ? { stderr: lmEvalPooledStderr(stderrs, sizes), method: 'lm-eval-pooled' }
    : { stderr: unweightedMeanStderr(stderrs), method: 'unweighted-mean' };
}

function checkGroup(where: string, stderrs: readonly number[], sizes: readonly number[]): void {
  requireSameLength(where, stderrs, sizes, 'stderrs and sizes');
  if (stderrs.length === 0) throw badArgument(where, 'needs at least one subtask');
  for (let i = 0; i < sizes.length; i++) {
    if (!Number.isInteger(sizes[i]) || sizes[i] < 1)
      throw badArgument(where, `sizes[${i}] must be a positive integer, got ${sizes[i]}`);
  }
}
