import { describe, expect, it } from 'vitest';
import { binomialPmf, binomialSf } from './distributions.js';
import { tangoScoreInterval, tangoScoreTest } from './tango-score.js';

/**
 * Exact probability of an event of the flip counts, enumerating the trinomial: n01 ~ Bin(n, p01) and,
 * given n01, n10 ~ Bin(n − n01, p10/(1 − p01)). `event(n01, ·)` must be monotone in n10 (`rising`: true
 * from some n10 on; otherwise true up to some n10), so each n01 needs one bisection.
 */
function exactProbability(
  n: number,
  p01: number,
  p10: number,
  event: (n01: number, n10: number) => boolean,
  rising: boolean,
): number {
  let total = 0;
  for (let n01 = 0; n01 <= n; n01++) {
    const weight = binomialPmf(n01, n, p01);
    if (weight < 1e-15) continue;
    const rest = n - n01;
    const q = p10 / (1 - p01);
    // The first n10 in [0, rest + 1] where the event flips.
    let low = 0;
    let high = rest + 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (event(n01, middle) === rising) high = middle;
      else low = middle + 1;
    }
    const fromLow = low > rest ? 0 : binomialSf(low - 1, rest, q);
    total += weight * (rising ? fromLow : 1 - fromLow);
  }
  return total;
}

/** Flip probabilities with θ = p10 − p01 and a share ψ of the pairs discordant. */
const flips = (theta: number, discordant: number) => ({
  p01: (discordant - theta) / 2,
  p10: (discordant + theta) / 2,
});

describe("Tango's score test as the gate uses it: one-sided, continuity correction 1 (issue 28 S2)", () => {
  it('has exact size ≤ 0.05 on both sides at the margin, including one-way flips', () => {
    let worstPass = 0;
    let worstFail = 0;
    let cells = 0;
    // Discordant share ψ = margin: every flip goes one way (right → wrong).
    for (const n of [50, 200, 1000])
      for (const margin of [0.005, 0.02, 0.3])
        for (const extra of [0, 0.001, 0.01, 0.1, 0.3]) {
          const { p01, p10 } = flips(-margin, margin + extra);
          const table = (n01: number, n10: number) => ({ n, n01, n10 });
          const pass = exactProbability(
            n,
            p01,
            p10,
            (n01, n10) =>
              tangoScoreTest(table(n01, n10), -margin, { alternative: 'greater', continuity: 1 }).pValue <
              0.05,
            true,
          );
          const fail = exactProbability(
            n,
            p01,
            p10,
            (n01, n10) =>
              tangoScoreTest(table(n01, n10), -margin, { alternative: 'less', continuity: 1 }).pValue < 0.05,
            false,
          );
          worstPass = Math.max(worstPass, pass);
          worstFail = Math.max(worstFail, fail);
          cells++;
        }
    expect(cells).toBe(45);
    expect(worstPass).toBeLessThanOrEqual(0.05);
    expect(worstFail).toBeLessThanOrEqual(0.05);
  });

  it('the uncorrected interval is two-sided only: one limit alone misses 0.053 near one-way flips, not 0.025', () => {
    // n = 500, θ = −0.008, 1% of the pairs discordant (0.9% right → wrong, 0.1% wrong → right).
    const { p01, p10 } = flips(-0.008, 0.01);
    const aboveUpper = (continuity: number) =>
      exactProbability(
        500,
        p01,
        p10,
        (n01, n10) => tangoScoreInterval({ n: 500, n01, n10 }, { continuity }).high < -0.008,
        false,
      );
    expect(aboveUpper(0)).toBeGreaterThan(0.05);
    // With the correction of one pair the same limit is a one-sided 97.5% bound there.
    expect(aboveUpper(1)).toBeLessThanOrEqual(0.025);
  });
});
