import { describe, expect, it } from 'vitest';
import { FastRandom } from './fast-random.js';
import { ppiMean, ppiTunedLambda } from './ppi-mean.js';

const labels = [1, 0, 1, 1, 0, 1];
const judgeLabelled = [0.9, 0.2, 0.6, 1.0, 0.4, 0.8];
const judgeUnlabelled = [0.8, 0.1, 0.7, 0.4, 0.9, 0.3, 1.0, 0.6, 0.5, 0.2];
const input = { labels, judgeLabelled, judgeUnlabelled };

describe('ppiMean', () => {
  it('λ = 1 is plain PPI: mean(Ŷᵘ) + mean(Y − Ŷ), by hand', () => {
    const result = ppiMean(input, { lambda: 1 });
    // mean(Ŷᵘ) = 5.5/10 = 0.55; mean(Y − Ŷ) = (4 − 3.9)/6 = 1/60.
    expect(result.estimate).toBeCloseTo(0.55 + 1 / 60, 14);
    // Var₀(Ŷᵘ) = Σ(ŷ − 0.55)²/10 = 0.825/10; Var₀(Y − Ŷ) over (0.1, −0.2, 0.4, 0, −0.4, 0.2): mean 1/60,
    // Σd² = 0.41, so Var₀ = 0.41/6 − (1/60)².
    const se = Math.sqrt(0.0825 / 10 + (0.41 / 6 - (1 / 60) ** 2) / 6);
    expect(result.standardError).toBeCloseTo(se, 14);
    expect(result.high - result.estimate).toBeCloseTo(1.959963984540054 * se, 12);
  });

  it('λ = 0 is the classical estimate: the labels alone', () => {
    const result = ppiMean(input, { lambda: 0 });
    expect(result.estimate).toBeCloseTo(4 / 6, 14);
    // Population variance of the labels (NumPy `std`, ddof 0): p(1 − p)/n with p = 2/3.
    expect(result.standardError).toBeCloseTo(Math.sqrt((2 / 3) * (1 / 3)) / Math.sqrt(6), 14);
  });

  it("tunes λ as ppi_py's _calc_lam_glm does (values from the formula evaluated in NumPy)", () => {
    // numpy: cov = Σ(Y−Ȳ)(Ŷ−Ŷ̄)/n; var = np.var(concat(Ŷ, Ŷᵘ), ddof=1); lam = clip(cov/((1+n/N)·var), 0, 1)
    // → 0.8177570093457943; estimate 0.5848909657320873; se 0.13991370342099432;
    // 95% interval [0.3106651460833199, 0.8591167853808548].
    expect(ppiTunedLambda(input)).toBeCloseTo(0.8177570093457943, 14);
    const result = ppiMean(input);
    expect(result.lambda).toBeCloseTo(0.8177570093457943, 14);
    expect(result.estimate).toBeCloseTo(0.5848909657320873, 14);
    expect(result.standardError).toBeCloseTo(0.13991370342099432, 14);
    expect(result.low).toBeCloseTo(0.3106651460833199, 12);
    expect(result.high).toBeCloseTo(0.8591167853808548, 12);
    expect(result.naive.estimate).toBeCloseTo((3.9 + 5.5) / 16, 14);
    expect(result.classical.estimate).toBeCloseTo(4 / 6, 14);
    expect({ labelled: result.labelled, unlabelled: result.unlabelled }).toEqual({
      labelled: 6,
      unlabelled: 10,
    });
  });

  it('clips λ to 0 for a judge anticorrelated with the labels, and uses λ = 0 with nothing unlabelled', () => {
    const reversed = { ...input, judgeLabelled: judgeLabelled.map((value) => 1 - value) };
    expect(ppiTunedLambda(reversed)).toBe(0);
    expect(ppiMean({ ...input, judgeUnlabelled: [] }).lambda).toBe(0);
  });

  it('refuses mismatched slices and a λ outside [0, 1]', () => {
    expect(() => ppiMean({ ...input, labels: [1, 0] })).toThrow(/same length/);
    expect(() => ppiMean(input, { lambda: 1.5 })).toThrow(/lambda/);
  });

  it('seeded simulation: a biased judge makes the naive interval miss; the PPI interval covers ≥ 0.93', () => {
    // Truth: Y ~ Bernoulli(0.5) on 2,000 documents, 200 of them labelled at random. The judge scores
    // class 0 at 0.1 instead of 0 (+0.1 bias) and class 1 with noise (1 − |N(0, 0.2)|, mean ≈ 0.84).
    const truth = 0.5;
    const documents = 2000;
    const labelled = 200;
    const random = new FastRandom(2024);
    const gaussian = () => {
      const u = 1 - random.nextDouble();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    };
    let naiveCovered = 0;
    let ppiCovered = 0;
    let ppiWidth = 0;
    let classicalWidth = 0;
    const replications = 400;
    for (let r = 0; r < replications; r++) {
      const y: number[] = [];
      const judge: number[] = [];
      for (let i = 0; i < documents; i++) {
        const value = random.nextDouble() < truth ? 1 : 0;
        y.push(value);
        judge.push(value === 0 ? 0.1 : 1 - Math.abs(0.2 * gaussian()));
      }
      // The first `labelled` documents are a uniformly random slice (the draws are exchangeable).
      const result = ppiMean({
        labels: y.slice(0, labelled),
        judgeLabelled: judge.slice(0, labelled),
        judgeUnlabelled: judge.slice(labelled),
      });
      if (result.naive.low <= truth && truth <= result.naive.high) naiveCovered++;
      if (result.low <= truth && truth <= result.high) ppiCovered++;
      ppiWidth += result.high - result.low;
      classicalWidth += result.classical.high - result.classical.low;
    }
    // Naive: mean judge score ≈ 0.5·0.1 + 0.5·0.84 ≈ 0.47 with SE ≈ 0.0095 — misses 0.5 nearly always.
    expect(naiveCovered / replications).toBeLessThan(0.2);
    expect(ppiCovered / replications).toBeGreaterThanOrEqual(0.93);
    // And the judge buys precision: narrower than the 200 labels alone.
    expect(ppiWidth).toBeLessThan(classicalWidth);
  });
});
