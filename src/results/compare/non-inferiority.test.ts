import { describe, expect, it } from 'vitest';
import { DesignSampler, GATE_DESIGNS } from '../../../test/fixtures/stats/gate-designs.js';
import { FastRandom } from '../../stats/fast-random.js';
import { BinomialSampler } from '../../stats/multinomial-sampler.js';
import {
  type NonInferiorityOptions,
  nonInferiority,
  pairedProportionNonInferiority,
} from './non-inferiority.js';

const ALPHA = 0.05;
const REPLICATIONS = 4000;
/** α + 3 Monte Carlo standard errors of a rejection rate whose true value is α. */
const LIMIT = ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / REPLICATIONS);

/**
 * Rejection rates over seeded draws of the flip counts of n paired 0/1 items, where an item gets worse
 * (A right, B wrong) with probability `worse` and better with probability `better`.
 */
function rejectionRates(
  n: number,
  worse: number,
  better: number,
  margin: number,
  seed: number,
): { pass: number; fail: number } {
  const sampler = new BinomialSampler(new FastRandom(seed));
  const options: NonInferiorityOptions = { margin, alpha: ALPHA, power: 0.8, higherIsBetter: true };
  let passes = 0;
  let fails = 0;
  for (let r = 0; r < REPLICATIONS; r++) {
    const rightToWrong = sampler.sample(n, worse);
    const wrongToRight = better === 0 ? 0 : sampler.sample(n - rightToWrong, better / (1 - worse));
    const result = pairedProportionNonInferiority({ n, rightToWrong, wrongToRight }, options);
    if (result.pNonInferiority < ALPHA) passes++;
    if (result.pInferiority < ALPHA) fails++;
  }
  return { pass: passes / REPLICATIONS, fail: fails / REPLICATIONS };
}

describe('the gate on paired 0/1 scores, calibrated by simulation', () => {
  const sizes = [200, 1000, 5000];
  const margins = [0.005, 0.02];
  // One-way: only regressions, the usual shape of a bad change. Two-way: the same net drop among
  // items that also improve (1% and 5% of items flipping up).
  const flips = [
    { name: 'one-way', better: 0 },
    { name: 'two-way 1%', better: 0.01 },
    { name: 'two-way 5%', better: 0.05 },
  ];
  let seed = 1;
  for (const n of sizes)
    for (const margin of margins)
      for (const { name, better } of flips) {
        const caseSeed = seed++;
        it(`false passes ≤ α + 3 SE when the true drop is the margin: n = ${n}, margin ${margin}, ${name}`, () => {
          const { pass } = rejectionRates(n, margin + better, better, margin, caseSeed);
          expect(pass).toBeLessThanOrEqual(LIMIT);
        });
      }
  for (const n of sizes)
    for (const margin of margins)
      for (const { name, better } of flips) {
        const caseSeed = 100 + seed++;
        it(`false fails ≤ α + 3 SE under no change: n = ${n}, margin ${margin}, ${name}`, () => {
          const { fail } = rejectionRates(n, better, better, margin, caseSeed);
          expect(fail).toBeLessThanOrEqual(LIMIT);
        });
      }

  it('still passes an unchanged model when n is large enough for the margin', () => {
    // Per-item sd of the difference √0.1 ≈ 0.316: the standard error at n = 5,000 is 0.0045, a
    // margin of 0.02 is 4.5 of them, and the power of a one-sided 5% test is above 0.99.
    expect(rejectionRates(5000, 0.05, 0.05, 0.02, 7).pass).toBeGreaterThan(0.95);
    // No flips at all among 5,000 items rules out a drop of 0.005 (Tango's Z = −5.0).
    expect(rejectionRates(5000, 0, 0, 0.005, 8).pass).toBe(1);
  });
});

describe('nonInferiority: zero variance is never evidence', () => {
  const options: NonInferiorityOptions = { margin: 0.005, alpha: ALPHA, power: 0.8, higherIsBetter: true };

  it('two or three identical 0/1 items do not pass a 0.005 margin', () => {
    for (const n of [2, 3]) {
      const result = nonInferiority(Array(n).fill(1), Array(n).fill(1), options);
      expect(result.method).toBe('tango-score');
      // Tango's Z with the continuity shift: (n·0.005 − 1)/√(n·0.005·0.995) < 0, so p > ½.
      expect(result.pNonInferiority).toBeGreaterThan(0.5);
      expect(result.pInferiority).toBeGreaterThan(0.5);
    }
  });

  it('identical continuous scores decide only over enough items, by the [0, 1] bound (1 − m)ⁿ', () => {
    const scores = (n: number) => Array.from({ length: n }, (_, i) => (i % 7) / 10 + 0.05);
    const small = nonInferiority(scores(3), scores(3), options);
    expect(small.method).toBe('constant-difference');
    expect(small.pNonInferiority).toBeCloseTo(0.995 ** 3, 15);
    expect(small.itemsNeeded).toBe(598);
    // 0.995^597 = 0.050163… and 0.995^598 = 0.049912… (exact rational arithmetic, Python fractions).
    expect(nonInferiority(scores(597), scores(597), options).pNonInferiority).toBeCloseTo(0.0501625, 6);
    expect(nonInferiority(scores(598), scores(598), options).pNonInferiority).toBeCloseTo(0.0499117, 6);
    const decided = nonInferiority(scores(598), scores(598), options);
    expect(decided.lowerBound).toBeGreaterThan(-0.005);
  });

  it('differences equal up to rounding count as equal, not as a t with a 1e-17 standard error', () => {
    // 0.3 − 0.1 and 0.5 − 0.3 differ in the last bit.
    const a = [0.1, 0.3, 0.1, 0.3];
    const b = [0.3, 0.5, 0.3, 0.5];
    const result = nonInferiority(a, b, options);
    expect(result.method).toBe('constant-difference');
    expect(result.pNonInferiority).toBeCloseTo((0.995 / 1.2) ** 4, 12);
  });

  it('a constant change of scores outside [0, 1] is no evidence at all', () => {
    const result = nonInferiority([10, 20, 30], [11, 21, 31], options);
    expect(result).toMatchObject({
      method: 'constant-difference',
      pNonInferiority: 1,
      pInferiority: 1,
      lowerBound: null,
      upperBound: null,
      itemsNeeded: null,
    });
  });

  it('keeps the one-sided paired t for continuous scores outside [0, 1], where no range is known', () => {
    // SciPy: ttest_1samp([0.1, -0.05, 0.2, 0.0] + 0.005, 0, alternative='greater').pvalue = 0.155195…
    // (the scores of the earlier version of this test, moved out of [0, 1]; the differences are the same).
    const result = nonInferiority([1.5, 1.5, 1.5, 1.5], [1.6, 1.45, 1.7, 1.5], options);
    expect(result.method).toBe('paired-t');
    expect(result.pNonInferiority).toBeCloseTo(0.1551948, 6);
  });

  it('orients lower-is-better metrics', () => {
    const lower = { ...options, higherIsBetter: false };
    // B has more 1s, i.e. worse when lower is better: 8 items right→wrong in the oriented sense.
    const a = Array(40).fill(0);
    const b = [...Array(8).fill(1), ...Array(32).fill(0)];
    expect(nonInferiority(a, b, lower).improvement).toBeCloseTo(-0.2, 15);
    expect(nonInferiority(a, b, options).improvement).toBeCloseTo(0.2, 15);
  });
});

describe('the gate on scores in [0, 1] that are not 0/1 (issue 28 S1)', () => {
  const options: NonInferiorityOptions = { margin: 0.005, alpha: ALPHA, power: 0.8, higherIsBetter: true };

  it('does not pass 200 items at 0.5 with one dropped to 0.2 at a margin of 0.005 (the t passed, p = 0.010)', () => {
    const a = Array(200).fill(0.5);
    const b = [0.2, ...Array(199).fill(0.5)];
    const result = nonInferiority(a, b, options);
    expect(result.method).toBe('betting');
    // No valid test can pass this: under the null where an item drops by 0.3 with probability
    // 0.005/0.3 (mean drop = the margin), "exactly one of 200 items dropped by 0.3, the rest unchanged"
    // has probability 200·q·(1 − q)¹⁹⁹ = 0.119 > α, and a test that ignores item order rejects all of
    // those outcomes or none.
    const q = 0.005 / 0.3;
    expect(200 * q * (1 - q) ** 199).toBeGreaterThan(ALPHA);
    expect(result.pNonInferiority).toBeGreaterThan(ALPHA);
    expect(result.lowerBound).toBeLessThan(-0.005);
  });

  it('bounds agree with the p-values: pass ⇔ lower bound > −m, fail ⇔ upper bound < −m', () => {
    const sampler = new DesignSampler(21);
    for (const design of GATE_DESIGNS)
      for (const drop of [0, 0.005, 0.03]) {
        const { a, b } = sampler.draw(design, 400, drop);
        const result = nonInferiority(a, b, { ...options, margin: 0.01 });
        // (No item changes in the one-way design without a drop: the constant-difference bound.)
        expect(result.method).toBe(
          design === 'sparse one-way' && drop === 0 ? 'constant-difference' : 'betting',
        );
        expect(result.pNonInferiority < ALPHA).toBe((result.lowerBound as number) > -0.01);
        expect(result.pInferiority < ALPHA).toBe((result.upperBound as number) < -0.01);
      }
  });

  // The full grid (n = 200, 1,000, 5,000; 4,000 replications) runs in `npm run bench` (bench/stats.ts);
  // this is its seeded small version: 600 replications, n = 200 and 1,000.
  const replications = 600;
  const limit = ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / replications);
  let seed = 500;
  for (const design of GATE_DESIGNS)
    for (const n of [200, 1000])
      for (const margin of [0.005, 0.02]) {
        const caseSeed = seed++;
        it(`false passes ≤ α + 3 SE when the true drop is the margin: ${design}, n = ${n}, margin ${margin}`, () => {
          const sampler = new DesignSampler(caseSeed);
          let passes = 0;
          for (let r = 0; r < replications; r++) {
            const { a, b } = sampler.draw(design, n, margin);
            const result = nonInferiority(a, b, { ...options, margin, pValuesOnly: true });
            if (result.pNonInferiority < ALPHA) passes++;
          }
          expect(passes / replications).toBeLessThanOrEqual(limit);
        });
      }

  it('still passes an unchanged model with enough items (gauss, n = 1,000, margin 0.02)', () => {
    const sampler = new DesignSampler(77);
    let passes = 0;
    for (let r = 0; r < 100; r++) {
      const { a, b } = sampler.draw('gauss', 1000, 0);
      if (nonInferiority(a, b, { ...options, margin: 0.02, pValuesOnly: true }).pNonInferiority < ALPHA)
        passes++;
    }
    expect(passes).toBeGreaterThanOrEqual(95);
  });
});
