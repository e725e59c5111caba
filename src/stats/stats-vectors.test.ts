/**
 * Runs every case of ../shared/reference/stats_vectors.json (SciPy/NumPy reference values) at the tolerance
 * the case gives. Each `function` maps to a handler that returns a value for every key of `expected`; a
 * key without a value fails the case, so no reference number is silently skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requireComponent, sharedFile } from '../../test/support/require-component.js';
import type { Alternative } from './alternative.js';
import { binomialTest } from './binomial-test.js';
import { bcaAcceleration, bcaAdjustedPercentiles } from './bootstrap-interval.js';
import { clusteredStandardError } from './clustered-stderr.js';
import { mean, meanStderr, plugInStderr } from './descriptive.js';
import {
  binomialCdf,
  binomialPmf,
  binomialSf,
  chiSquareQuantile,
  chiSquareSf,
  normalCdf,
  normalQuantile,
  normalSf,
  studentTQuantile,
  studentTSf,
} from './distributions.js';
import {
  concatenatedStderr,
  groupMean,
  lmEvalPooledStderr,
  stratifiedStderr,
  unweightedMeanStderr,
} from './group-stderr.js';
import { mcnemarTest } from './mcnemar.js';
import { normalInterval } from './normal-interval.js';
import { adjustPValues } from './p-value-adjustment.js';
import { pairedDifference } from './paired-difference.js';
import { pairedTTest } from './paired-t-test.js';
import { passAtK, passAtKAggregate, passHatK } from './pass-at-k.js';
import { pairedPermutationTest } from './permutation-test.js';
import { minimumDetectableEffect, powerSampleSize } from './power.js';
import { proportionConfidenceInterval } from './proportion-interval.js';
import { resampledQuestionScores } from './repeated-samples.js';
import {
  type WilcoxonMethod,
  type WilcoxonZeroMethod,
  wilcoxonNullDistribution,
  wilcoxonSignedRank,
} from './wilcoxon.js';

const vectorsPath = sharedFile('reference', 'stats_vectors.json');
const vectors = requireComponent('stats vectors', existsSync(vectorsPath));

// biome-ignore lint/suspicious/noExplicitAny: the reference file is untyped JSON, read per case below
type Json = any;

interface VectorCase {
  name: string;
  function: string;
  inputs: Json;
  expected: Record<string, Json>;
  scipy_call: string;
  tol: number;
}

/** The file writes non-finite numbers as strings. */
function decode(value: Json): Json {
  if (value === 'NaN') return Number.NaN;
  if (value === 'Infinity') return Number.POSITIVE_INFINITY;
  if (value === '-Infinity') return Number.NEGATIVE_INFINITY;
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, decode(inner)]));
  }
  return value;
}

const binaryScores = (k: number, n: number) => Array.from({ length: n }, (_, i) => (i < k ? 1 : 0));

type Handler = (inputs: Json) => Record<string, Json>;

const handlers: Record<string, Handler> = {
  normalQuantile: ({ p }) => ({ value: normalQuantile(p) }),
  normalCdf: ({ x }) => ({ value: normalCdf(x), sf: normalSf(x) }),
  studentTQuantile: ({ p, df }) => ({ value: studentTQuantile(p, df) }),
  studentTSf: ({ x, df }) => ({ sf: studentTSf(x, df), two_sided_p: 2 * studentTSf(Math.abs(x), df) }),
  chiSquareSf: ({ x, df }) => ({ value: chiSquareSf(x, df) }),
  chiSquareQuantile: ({ p, df }) => ({ value: chiSquareQuantile(p, df) }),
  binomialCdf: ({ k, n, p }) => ({
    cdf: binomialCdf(k, n, p),
    pmf: binomialPmf(k, n, p),
    sf_k_minus_1: binomialSf(k - 1, n, p),
  }),
  binomialTest: ({ k, n, p }) => ({
    pvalue: Object.fromEntries(
      (['two-sided', 'less', 'greater'] as Alternative[]).map((alternative) => [
        alternative,
        binomialTest(k, n, p, alternative),
      ]),
    ),
  }),
  mcnemar: ({ n01, n10 }) => {
    const result = mcnemarTest(n01, n10);
    return {
      n_discordant: result.discordant,
      exact_p: result.exactPValue,
      // For p = ½ the minlike two-sided p equals min(1, 2·cdf(min)) (the case notes say so).
      exact_p_formula_2cdf_capped: result.exactPValue,
      midp: result.midPValue,
      midp_fagerland_convention: result.midPValue,
      chi2_cc_R: result.chiSquareCorrected,
      p_chi2_cc_R: result.pValueChiSquareCorrected,
      // R and statsmodels differ only when n01 = n10 ≠ 0, a split no case has; assay follows R.
      chi2_cc_statsmodels: result.chiSquareCorrected,
      p_chi2_cc_statsmodels: result.pValueChiSquareCorrected,
      chi2_nocc: result.chiSquare,
      p_chi2_nocc: result.pValueChiSquare,
      z_nocc_signed: result.z,
      recommended_p_when_no_discordant: result.pValue,
    };
  },
  wilcoxonSignedRank: wilcoxonHandler,
  'wilcoxonSignedRank(scipy default)': wilcoxonHandler,
  wilcoxonNullDistribution: ({ n }) => wilcoxonNullDistribution(n),
  pairedTTest: ({ a, b }) => {
    const result = pairedTTest(a, b);
    return {
      mean_diff: result.meanDifference,
      sd_diff: result.standardDeviation,
      se: result.standardError,
      t: result.t,
      df: result.degreesOfFreedom,
      pvalue: result.pValue,
      ci95_low: result.interval.low,
      ci95_high: result.interval.high,
    };
  },
  proportionConfidenceInterval: ({ k, n, confidence }) => {
    const pair = (method: Parameters<typeof proportionConfidenceInterval>[2] extends infer O ? O : never) => {
      const interval = proportionConfidenceInterval(k, n, method);
      return [interval.low, interval.high];
    };
    const wilson = pair({ confidence, method: 'wilson' });
    const clopperPearson = pair({ confidence, method: 'clopper-pearson' });
    return {
      p_hat: proportionConfidenceInterval(k, n, { confidence }).estimate,
      // assay's Wilson is SciPy's formula; the case's hand formula agrees to ~1e-16.
      wilson,
      wilson_scipy: wilson,
      wilson_cc_scipy: pair({ confidence, method: 'wilson-cc' }),
      clopper_pearson: clopperPearson,
      clopper_pearson_scipy: clopperPearson,
      wald: pair({ confidence, method: 'wald' }),
      se_bernoulli_n: plugInStderr(binaryScores(k, n)),
      se_sample_n_minus_1: meanStderr(binaryScores(k, n)),
    };
  },
  passAtK: ({ n, c, k }) => ({
    value: passAtK(n, c, k),
    exact_fraction: passAtK(n, c, k),
    stable_product: passAtK(n, c, k),
    // The biased plug-in estimator, shown in the case only as the thing not to do; assay has no such
    // function, so this recomputes it here to keep the case's numbers honest.
    'naive_biased_1_minus_(1-c/n)^k': 1 - (1 - c / n) ** k,
    pass_hat_k: passHatK(n, c, k),
  }),
  passAtKAggregate: ({ n, c, k }) => {
    const result = passAtKAggregate(n, c, k);
    return { per_problem: result.perProblem, mean: result.mean, se_clt: result.standardError };
  },
  standardErrorOfMean: ({ scores }) => {
    const interval = normalInterval(mean(scores), meanStderr(scores));
    return {
      mean: mean(scores),
      se_clt_ddof1: meanStderr(scores),
      se_bernoulli_plugin: plugInStderr(scores),
      se_lm_eval_mean_stderr: meanStderr(scores),
      ci95_normal: [interval.low, interval.high],
      ideal_bootstrap_se_plugin: plugInStderr(scores),
    };
  },
  clusteredStandardError: ({ scores, clusters }) => {
    const miller = clusteredStandardError(scores, clusters);
    return {
      mean: miller.mean,
      se_clt: miller.naiveStandardError,
      se_clustered_miller_eq4: miller.standardError,
      se_clustered_sandwich_no_correction: clusteredStandardError(scores, clusters, { estimator: 'sandwich' })
        .standardError,
      se_clustered_sandwich_C_over_C_minus_1: clusteredStandardError(scores, clusters, {
        estimator: 'sandwich',
        clusterCorrection: true,
      }).standardError,
      n_clusters: miller.clusterCount,
    };
  },
  pairedDifference: ({ a, b, clusters }) => {
    // The case's difference is a − b: a is the candidate, b the baseline.
    const result = pairedDifference(b, a, { clusters });
    return {
      mean_diff_a_minus_b: result.difference,
      se_unpaired: result.unpairedStandardError,
      se_paired: result.standardError,
      // √(SE_A² + SE_B² − 2·Cov/n) is the same quantity as the stderr of the differences (ddof 1 both).
      se_paired_via_cov: Math.sqrt(
        meanStderr(a) ** 2 + meanStderr(b) ** 2 - (2 * result.covariance) / result.n,
      ),
      cov_ddof1: result.covariance,
      pearson_r: result.correlation,
      z_paired: result.z,
      p_paired_normal: result.pValue,
      ci95_paired: [result.interval.low, result.interval.high],
      se_paired_clustered_miller_eq4: result.clustered?.standardError,
      se_paired_clustered_CR1: result.clustered?.standardErrorCr1,
      n01_A_right_B_wrong: result.flips?.wrongToRight.length,
      n10_A_wrong_B_right: result.flips?.rightToWrong.length,
    };
  },
  powerSampleSize: ({ delta, omega2, sigmaA2, sigmaB2, K, alpha, power, n_for_mde }) => {
    const inputs = { omega2, sigmaA2, sigmaB2, K, alpha, power };
    const size = powerSampleSize(delta, inputs);
    return {
      z_alpha_over_2: size.zAlphaOverTwo,
      z_beta: size.zBeta,
      n_required_real: size.nExact,
      n_required_ceil: size.n,
      mde_at_n: minimumDetectableEffect(n_for_mde, inputs),
    };
  },
  resampledQuestionScores: ({ scores_question_by_sample }) => {
    const result = resampledQuestionScores(scores_question_by_sample);
    return {
      question_means: result.questionMeans,
      mean: result.mean,
      se_question_level: result.standardError,
      se_WRONG_pooled_all_samples: result.pooledStandardError,
      mean_within_var_ddof1: result.meanWithinVariance,
      var_between_estimate: result.betweenVariance,
      // For 0/1 samples the n − 1 within variance is the Bernoulli p(1−p)·K/(K−1).
      bernoulli_within_plugin_K_over_K_minus_1: result.withinVariances,
    };
  },
  lmEvalPooledStderr: ({ stderrs, sizes }) => {
    // The inputs omit the subtask means. The expected group means (0.375, 0.3833…) and the stderrs are
    // those of 0/1 subtasks with accuracies 0.4, 0.5 and 0.25: se = √(p(1−p)/(n−1)), checked here first.
    const means = [0.4, 0.5, 0.25];
    for (const [i, p] of means.entries())
      expect(Math.sqrt((p * (1 - p)) / (sizes[i] - 1))).toBeCloseTo(stderrs[i], 15);
    return {
      pooled: lmEvalPooledStderr(stderrs, sizes),
      group_mean_size_weighted: groupMean(means, sizes, true),
      stderr_of_concatenation: concatenatedStderr(means, stderrs, sizes),
      stratified_se_size_weighted: stratifiedStderr(stderrs, sizes),
      group_mean_unweighted: groupMean(means, sizes, false),
      se_unweighted_mean_of_subtasks: unweightedMeanStderr(stderrs),
    };
  },
  adjustPValues: ({ p }) => ({
    bonferroni: adjustPValues(p, 'bonferroni'),
    holm: adjustPValues(p, 'holm'),
    bh: adjustPValues(p, 'bh'),
    by: adjustPValues(p, 'by'),
  }),
  pairedPermutationTest: ({ d, statistic, alternative, exhaustive }) => {
    expect(statistic).toBe('mean');
    expect(exhaustive).toBe(true);
    const result = pairedPermutationTest(d, { alternative });
    expect(result.method).toBe('exact');
    return {
      observed: result.observed,
      pvalue_scipy: result.pValue,
      pvalue_abs_enumeration: result.pValueAbsolute,
      n_sign_patterns: result.patterns,
    };
  },
  bcaAcceleration: ({ x, statistic }) => {
    expect(statistic).toBe('mean');
    const general = bcaAcceleration(x, (items: readonly number[]) => mean(items));
    const closedForm = bcaAcceleration(x);
    return {
      a_hat: general.acceleration,
      a_hat_closed_form_mean: closedForm.acceleration,
      jackknife_values: Array.from(general.jackknifeValues),
    };
  },
  bcaAdjustedPercentiles: ({ z0, a, confidence }) => bcaAdjustedPercentiles(z0, a, confidence),
};

function wilcoxonHandler(inputs: Json): Record<string, Json> {
  const result = wilcoxonSignedRank(inputs.d, {
    zeroMethod: inputs.zero_method as WilcoxonZeroMethod,
    method: inputs.method as WilcoxonMethod,
    correction: inputs.correction,
    alternative: inputs.alternative as Alternative,
  });
  return { statistic: result.statistic, pvalue: result.pValue, zstatistic: result.z };
}

/** Compares numbers (tolerance `tol`, NaN equal to NaN), arrays and objects key by key; returns mismatches. */
function compare(label: string, actual: Json, expected: Json, tol: number, problems: string[]): void {
  if (typeof expected === 'string' && /^\d+\/\d+$/.test(expected)) {
    const [numerator, denominator] = expected.split('/').map(Number);
    compare(label, actual, numerator / denominator, tol, problems);
  } else if (typeof expected === 'number') {
    const ok =
      typeof actual === 'number' &&
      (Number.isNaN(expected)
        ? Number.isNaN(actual)
        : !Number.isFinite(expected)
          ? actual === expected
          : Math.abs(actual - expected) <= tol);
    if (!ok) problems.push(`${label}: expected ${expected}, got ${actual} (tol ${tol})`);
  } else if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      problems.push(`${label}: expected an array of ${expected.length}, got ${JSON.stringify(actual)}`);
      return;
    }
    for (const [i, item] of expected.entries()) compare(`${label}[${i}]`, actual[i], item, tol, problems);
  } else if (expected !== null && typeof expected === 'object') {
    for (const [key, value] of Object.entries(expected)) {
      if (actual === null || typeof actual !== 'object' || !(key in actual) || actual[key] === undefined) {
        problems.push(`${label}.${key}: no value computed`);
      } else {
        compare(`${label}.${key}`, actual[key], value, tol, problems);
      }
    }
  } else if (actual !== expected) {
    problems.push(`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

describe.skipIf(!vectors)('stats_vectors.json (SciPy/NumPy reference cases)', () => {
  const cases: VectorCase[] = vectors ? JSON.parse(readFileSync(vectorsPath, 'utf8')).cases : [];

  it('has a handler for every function in the file', () => {
    const missing = [...new Set(cases.map((c) => c.function))].filter((name) => !(name in handlers));
    expect(missing).toEqual([]);
  });

  for (const [index, vector] of cases.entries()) {
    it(`#${index} ${vector.function}: ${vector.name}`, () => {
      const handler = handlers[vector.function];
      expect(handler, `no handler for ${vector.function}`).toBeDefined();
      const actual = handler(decode(vector.inputs));
      const problems: string[] = [];
      compare(vector.name, actual, decode(vector.expected), vector.tol, problems);
      expect(problems).toEqual([]);
    });
  }
});
