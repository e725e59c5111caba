/**
 * The summary `llama-perplexity --kl-divergence` prints, from per-token values: mean ± standard error,
 * and the KL divergence's distribution (max, 99.9 %, 99 %, 95 %, 90 %, median, 10 %, 5 %, 1 %, min).
 */

export interface MeanAndError {
  value: number;
  /** Standard error of the mean; null with fewer than two values. */
  stderr: number | null;
}

export function meanAndError(values: ArrayLike<number>): MeanAndError {
  const count = values.length;
  let sum = 0;
  for (let i = 0; i < count; i++) sum += values[i];
  const mean = sum / count;
  if (count < 2) return { value: mean, stderr: null };
  let squares = 0;
  for (let i = 0; i < count; i++) squares += (values[i] - mean) ** 2;
  return { value: mean, stderr: Math.sqrt(squares / (count - 1) / count) };
}

/** Linear interpolation between closest ranks (numpy's default), p in [0, 1]. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const at = p * (sorted.length - 1);
  const below = Math.floor(at);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (at - below);
}

export interface Distribution {
  mean: number;
  stderr: number | null;
  max: number;
  p99_9: number;
  p99: number;
  p95: number;
  p90: number;
  median: number;
  p10: number;
  p5: number;
  p1: number;
  min: number;
}

export function distribution(values: ArrayLike<number>): Distribution {
  const sorted = Float64Array.from(values).sort();
  const { value, stderr } = meanAndError(sorted);
  return {
    mean: value,
    stderr,
    max: sorted[sorted.length - 1],
    p99_9: percentile(sorted, 0.999),
    p99: percentile(sorted, 0.99),
    p95: percentile(sorted, 0.95),
    p90: percentile(sorted, 0.9),
    median: percentile(sorted, 0.5),
    p10: percentile(sorted, 0.1),
    p5: percentile(sorted, 0.05),
    p1: percentile(sorted, 0.01),
    min: sorted[0],
  };
}

/** exp of a mean log with its delta-method error: perplexity from mean NLL, or a PPL ratio from mean ΔNLL. */
export function exponentiated(meanLog: MeanAndError): MeanAndError {
  const value = Math.exp(meanLog.value);
  return { value, stderr: meanLog.stderr === null ? null : value * meanLog.stderr };
}
