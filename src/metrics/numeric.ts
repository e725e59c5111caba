/**
 * Summation in the same order as the reference implementations, so that aggregated floats agree to the
 * last bit: Python's `sum()` adds left to right; numpy's `np.sum` over a float64 array uses pairwise
 * summation (8 accumulators, blocks of 128; numpy/_core/src/umath/loops_utils.h.src).
 */
export function pythonSum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

const PAIRWISE_BLOCK = 128;

export function numpySum(values: readonly number[]): number {
  return pairwise(values, 0, values.length);
}

function pairwise(values: readonly number[], start: number, count: number): number {
  if (count < 8) {
    let total = -0;
    for (let index = 0; index < count; index++) total += values[start + index];
    return total;
  }
  if (count <= PAIRWISE_BLOCK) {
    const partial = values.slice(start, start + 8);
    let index = 8;
    for (; index < count - (count % 8); index += 8) {
      for (let lane = 0; lane < 8; lane++) partial[lane] += values[start + index + lane];
    }
    let total =
      partial[0] +
      partial[1] +
      (partial[2] + partial[3]) +
      (partial[4] + partial[5] + (partial[6] + partial[7]));
    for (; index < count; index++) total += values[start + index];
    return total;
  }
  let half = Math.floor(count / 2);
  half -= half % 8;
  return pairwise(values, start, half) + pairwise(values, start + half, count - half);
}
