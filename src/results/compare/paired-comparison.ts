/**
 * Every paired test of one comparison row (a task, or a group's pooled items): B − A with its paired
 * interval and correlation, McNemar (0/1 scores), the paired t-test, Wilcoxon signed-rank under all three
 * of SciPy's zero methods, the sign-flip permutation test, a paired bootstrap interval (for scores that
 * are not 0/1; those get Tango's score interval instead), and the minimum detectable effect at the row's n. The "default test" is McNemar for 0/1 scores and the permutation
 * test otherwise: both are exact or Monte Carlo-exact, without the t-test's normality assumption.
 *
 * The reported interval comes from the default test, so it excludes 0 exactly when p < alpha: for 0/1
 * scores Tango's interval with the continuity shift that makes its test at 0 McNemar's
 * (stats/paired-difference-interval.ts), otherwise the interval that inverts the sign-flip permutation
 * test on the same sign patterns (stats/permutation-test.ts). B − A ± 1.96·SE, used before for scores
 * that are not 0/1, covered 0.918 of the time at n = 10 and could exclude 0 where the permutation test
 * found nothing.
 */
import { isBinary, mean, sampleStddev } from '../../stats/descriptive.js';
import { normalQuantile } from '../../stats/distributions.js';
import { type McNemarResult, mcnemarTest } from '../../stats/mcnemar.js';
import { pairedBootstrapInterval } from '../../stats/paired-bootstrap.js';
import { pairedDifference } from '../../stats/paired-difference.js';
import { pairedDifferenceInterval } from '../../stats/paired-difference-interval.js';
import { pairedTTest } from '../../stats/paired-t-test.js';
import { pairedPermutationTest } from '../../stats/permutation-test.js';
import { accuracyMinimumDetectableEffect } from '../../stats/power.js';
import { type WilcoxonZeroMethod, wilcoxonSignedRank } from '../../stats/wilcoxon.js';

export interface PairedComparisonOptions {
  /** Level of the two-sided tests and of the MDE. Default 0.05. */
  alpha?: number;
  /** Power for the MDE. Default 0.8. */
  power?: number;
  seed?: number;
  bootstrapIterations?: number;
  permutationResamples?: number;
}

export interface WilcoxonSummary {
  statistic: number;
  pValue: number;
  method: 'exact' | 'asymptotic' | 'permutation';
}

export interface PairedComparison {
  n: number;
  meanA: number;
  meanB: number;
  /** meanB − meanA. */
  difference: number;
  standardError: number;
  /** What an unpaired analysis (lm-eval's compare script) would report. */
  unpairedStandardError: number;
  /**
   * 1 − alpha interval of the paired difference, from the default test: Tango's score interval matched
   * to McNemar for 0/1 scores, the inverted sign-flip permutation test otherwise.
   */
  interval: [number, number];
  intervalMethod: 'tango-score' | 'sign-flip-permutation';
  /** Tango's continuity shift, in pairs (0/1 scores). */
  intervalContinuity?: number;
  /** Pearson correlation of per-item scores; null when either run is constant. */
  correlation: number | null;
  binary: boolean;
  mcnemar?: McNemarResult;
  tTest: { t: number; degreesOfFreedom: number; pValue: number | null; zeroVariance: boolean };
  /** One entry per SciPy zero method; null when the method has nothing to rank (all differences zero). */
  wilcoxon: Record<WilcoxonZeroMethod, WilcoxonSummary | null>;
  permutation: { pValue: number; method: 'exact' | 'monte-carlo'; patterns: number };
  /** Paired percentile bootstrap, for scores that are not 0/1 (null for 0/1 scores, which use the score interval). */
  bootstrap: { interval: [number, number]; standardError: number; iterations: number; seed: number } | null;
  defaultTest: 'mcnemar' | 'permutation';
  /** p-value of the default test. */
  pValue: number;
  /**
   * Smallest |B − A| this n detects at `power` and `alpha` (Miller 2024 eq. 10); null when no change the
   * scores leave room for is detectable ("not reachable at this n").
   */
  minimumDetectableEffect: number | null;
  /** How the MDE's variance was obtained. */
  mdeVariance: 'observed' | 'accuracy-rho-0.5';
  /** Positions (into the pair arrays) of the items that flipped, for 0/1 scores. */
  flips?: { rightToWrong: number[]; wrongToRight: number[] };
}

const ZERO_METHODS: WilcoxonZeroMethod[] = ['wilcox', 'pratt', 'zsplit'];

function wilcoxonOrNull(differences: Float64Array, zeroMethod: WilcoxonZeroMethod): WilcoxonSummary | null {
  // With every difference zero there is nothing to rank (SciPy returns NaN); with `wilcox` that happens as
  // soon as all nonzero differences are gone.
  if (differences.every((d) => d === 0)) return null;
  const result = wilcoxonSignedRank(differences, { zeroMethod });
  return { statistic: result.statistic, pValue: result.pValue, method: result.method };
}

export function comparePairedScores(
  a: Float64Array,
  b: Float64Array,
  options: PairedComparisonOptions = {},
): PairedComparison {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  const seed = options.seed ?? 0;
  const n = a.length;
  const summary = pairedDifference(a, b, { confidence: 1 - alpha });
  const differences = Float64Array.from({ length: n }, (_, i) => b[i] - a[i]);
  const binary = isBinary(a) && isBinary(b);
  const t = pairedTTest(b, a, { confidence: 1 - alpha });
  const permutation = pairedPermutationTest(differences, {
    seed,
    resamples: options.permutationResamples ?? 10_000,
    ...(binary ? {} : { confidence: 1 - alpha }),
  });
  const tango = binary ? pairedDifferenceInterval(a, b, 1 - alpha) : null;
  // With few items no sign pattern is rare enough to reject anything: scores in [0, 1] still bound B − A.
  const unit = !binary && a.every((x) => x >= 0 && x <= 1) && b.every((x) => x >= 0 && x <= 1);
  const interval: [number, number] = tango
    ? [tango.low, tango.high]
    : [
        Math.max(permutation.interval?.low ?? -Infinity, unit ? -1 : -Infinity),
        Math.min(permutation.interval?.high ?? Infinity, unit ? 1 : Infinity),
      ];
  const bootstrap = binary
    ? null
    : pairedBootstrapInterval(a, b, {
        iterations: options.bootstrapIterations ?? 10_000,
        seed,
        confidence: 1 - alpha,
      });
  let mcnemar: McNemarResult | undefined;
  if (binary && summary.flips)
    mcnemar = mcnemarTest(summary.flips.rightToWrong.length, summary.flips.wrongToRight.length);

  // Eq. 10 with the observed variance of the differences. When no item differs that variance is 0 and
  // would claim any effect is detectable; 0/1 scores then fall back to Miller's accuracy formula at ρ = 0.5
  // (or the largest correlation the accuracies allow), solved in both directions within the headroom.
  const sd = sampleStddev(differences);
  let minimumDetectableEffect: number | null;
  let mdeVariance: PairedComparison['mdeVariance'] = 'observed';
  if (sd > 0 || !binary) {
    minimumDetectableEffect = (normalQuantile(1 - alpha / 2) + normalQuantile(power)) * (sd / Math.sqrt(n));
    // 0/1 scores cannot move by more than max(p_A, 1 − p_A).
    const baseline = mean(a);
    if (binary && minimumDetectableEffect > Math.max(baseline, 1 - baseline)) minimumDetectableEffect = null;
  } else {
    const solve = (direction: 'increase' | 'decrease') =>
      accuracyMinimumDetectableEffect(n, {
        baseline: mean(a),
        correlation: 0.5,
        clipCorrelation: true,
        direction,
        alpha,
        power,
      }).paired;
    const reachable = [solve('increase'), solve('decrease')].filter((value) => value !== null);
    minimumDetectableEffect = reachable.length ? Math.min(...reachable) : null;
    mdeVariance = 'accuracy-rho-0.5';
  }
  const defaultTest = binary ? 'mcnemar' : 'permutation';
  return {
    n,
    meanA: summary.baselineMean,
    meanB: summary.candidateMean,
    difference: summary.difference,
    standardError: summary.standardError,
    unpairedStandardError: summary.unpairedStandardError,
    interval,
    intervalMethod: tango ? 'tango-score' : 'sign-flip-permutation',
    ...(tango ? { intervalContinuity: tango.continuity } : {}),
    correlation: Number.isFinite(summary.correlation) ? summary.correlation : null,
    binary,
    mcnemar,
    tTest: {
      t: t.t,
      degreesOfFreedom: t.degreesOfFreedom,
      pValue: Number.isNaN(t.pValue) ? null : t.pValue,
      zeroVariance: t.zeroVariance,
    },
    wilcoxon: Object.fromEntries(
      ZERO_METHODS.map((method) => [method, wilcoxonOrNull(differences, method)]),
    ) as Record<WilcoxonZeroMethod, WilcoxonSummary | null>,
    permutation: { pValue: permutation.pValue, method: permutation.method, patterns: permutation.patterns },
    bootstrap: bootstrap && {
      interval: [bootstrap.low, bootstrap.high],
      standardError: bootstrap.standardError,
      iterations: bootstrap.iterations,
      seed: bootstrap.seed,
    },
    defaultTest,
    pValue: defaultTest === 'mcnemar' && mcnemar ? mcnemar.pValue : permutation.pValue,
    minimumDetectableEffect,
    mdeVariance,
    flips: summary.flips,
  };
}
