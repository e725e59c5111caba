/**
 * Runs every case of test/fixtures/stats/edge_vectors.json: reference values for the edge cases of the
 * statistics (Tango's score test and interval, permutation ties, Wilcoxon of one zero, clustered stderr
 * with one cluster, within_share, the accuracy MDE and correlation bounds, lm-eval's median), computed
 * with SciPy/NumPy, Python's fractions and CPython's random; each case says how in `scipy_call`. The file
 * has the shape of ../shared/reference/stats_vectors.json and the same comparison rules: every expected key
 * needs a computed value, numbers within `tol`, null for "undefined".
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { median, trueMedian } from '../metrics/aggregations.js';
import { bootstrapStderr } from './bootstrap-stderr.js';
import { clusteredStandardError } from './clustered-stderr.js';
import { pairedPermutationTest } from './permutation-test.js';
import {
  accuracyCorrelationBounds,
  accuracyDifferenceVariance,
  accuracyMinimumDetectableEffect,
  accuracyPowerPlan,
  powerSampleSize,
} from './power.js';
import { resampledQuestionScores } from './repeated-samples.js';
import { tangoScoreInterval, tangoScoreStatistic, tangoScoreTest } from './tango-score.js';
import { wilcoxonSignedRank } from './wilcoxon.js';

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/stats/edge_vectors.json',
);

// biome-ignore lint/suspicious/noExplicitAny: the fixture is untyped JSON, read per case below
type Json = any;

const handlers: Record<string, (inputs: Json) => Record<string, Json>> = {
  tangoScoreInterval: ({ n01, n10, n, confidence, continuity }) => {
    const interval = tangoScoreInterval({ n01, n10, n }, { confidence, continuity });
    return { interval: [interval.low, interval.high] };
  },
  tangoScoreTest: ({ n01, n10, n, theta0, continuity }) => {
    const test = (alternative: 'greater' | 'less') => {
      const result = tangoScoreTest({ n01, n10, n }, theta0, { alternative, continuity });
      return { z: result.z, pvalue: result.pValue };
    };
    const bounds = tangoScoreInterval({ n01, n10, n }, { confidence: 0.9, continuity });
    return { greater: test('greater'), less: test('less'), bounds_90: [bounds.low, bounds.high] };
  },
  tangoScoreStatistic: ({ n01, n10, n, theta0 }) => ({ value: tangoScoreStatistic({ n01, n10, n }, theta0) }),
  pairedPermutationTest: ({ d }) => {
    const result = pairedPermutationTest(d);
    expect(result.method).toBe('exact');
    return { pvalue: result.pValue, pvalue_scipy: result.pValue };
  },
  wilcoxonSignedRank: ({ d }) => {
    try {
      wilcoxonSignedRank(d);
      return { raises: false };
    } catch {
      return { raises: true };
    }
  },
  clusteredStandardError: ({ scores, clusters }) => {
    const result = clusteredStandardError(scores, clusters);
    expect(result.note).toMatch(/needs at least 2 clusters/);
    return {
      se_clustered_miller_eq4: result.standardError,
      se_clt: result.naiveStandardError,
      n_clusters: result.clusterCount,
    };
  },
  resampledQuestionScores: ({ scores_question_by_sample }) => {
    const result = resampledQuestionScores(scores_question_by_sample);
    const k = scores_question_by_sample[0].length;
    const varianceOfMeans = result.standardError ** 2 * scores_question_by_sample.length;
    return {
      within_share: result.withinShare,
      within_share_unclipped:
        varianceOfMeans === 0 ? Number.POSITIVE_INFINITY : result.meanWithinVariance / k / varianceOfMeans,
    };
  },
  accuracyMinimumDetectableEffect: ({ baseline, n, correlation, direction }) => {
    const result = accuracyMinimumDetectableEffect(n, { baseline, correlation, direction });
    return { paired: result.paired, unpaired: result.unpaired };
  },
  accuracyCorrelationBounds: ({ p, q }) => {
    const bounds = accuracyCorrelationBounds(p, q);
    return { bounds: [bounds.low, bounds.high] };
  },
  itemsAtCorrelation: ({ baseline, delta, correlation }) => {
    try {
      const plan = accuracyPowerPlan(delta, { baseline, correlation });
      return { n_required_real: plan.paired.nExact, n_required_ceil: plan.paired.n };
    } catch (error) {
      const bound = /max correlation (-?[\d.]+)/.exec(String(error));
      return {
        refused_with_max_correlation: bound ? Number(bound[1]) : undefined,
        // The number the refused correlation would have claimed, to keep the case's figure honest.
        n_if_accepted: powerSampleSize(delta, {
          omega2: accuracyDifferenceVariance(baseline, baseline + delta, correlation),
        }).nExact,
      };
    }
  },
  median: ({ items }) => ({
    lm_eval: median(items),
    true_median: trueMedian(items),
    lm_eval_bootstrap_stderr_2000: bootstrapStderr(
      (sample: readonly number[]) => median([...sample]),
      items,
      2000,
      { mode: 'lm-eval' },
    ),
    true_median_bootstrap_stderr_2000: bootstrapStderr(
      (sample: readonly number[]) => trueMedian([...sample]),
      items,
      2000,
      { mode: 'lm-eval' },
    ),
  }),
};

function decode(value: Json): Json {
  if (value === 'NaN') return Number.NaN;
  if (value === 'Infinity') return Number.POSITIVE_INFINITY;
  if (value === '-Infinity') return Number.NEGATIVE_INFINITY;
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, decode(inner)]));
  return value;
}

function compare(label: string, actual: Json, expected: Json, tol: number, problems: string[]): void {
  if (expected === null) {
    if (actual !== null) problems.push(`${label}: expected null, got ${JSON.stringify(actual)}`);
  } else if (typeof expected === 'number') {
    const ok =
      typeof actual === 'number' &&
      (Number.isFinite(expected) ? Math.abs(actual - expected) <= tol : actual === expected);
    if (!ok) problems.push(`${label}: expected ${expected}, got ${actual} (tol ${tol})`);
  } else if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      problems.push(`${label}: expected an array of ${expected.length}, got ${JSON.stringify(actual)}`);
      return;
    }
    for (const [i, item] of expected.entries()) compare(`${label}[${i}]`, actual[i], item, tol, problems);
  } else if (typeof expected === 'object') {
    for (const [key, value] of Object.entries(expected)) {
      if (actual === null || typeof actual !== 'object' || actual[key] === undefined)
        problems.push(`${label}.${key}: no value computed`);
      else compare(`${label}.${key}`, actual[key], value, tol, problems);
    }
  } else if (actual !== expected) {
    problems.push(`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

describe('edge_vectors.json (SciPy, fractions and CPython reference cases for the edges)', () => {
  const cases: Array<{ name: string; function: string; inputs: Json; expected: Json; tol: number }> =
    JSON.parse(readFileSync(fixture, 'utf8')).cases;

  it('has a handler for every function in the file', () => {
    expect([...new Set(cases.map((c) => c.function))].filter((name) => !(name in handlers))).toEqual([]);
  });

  for (const [index, vector] of cases.entries())
    it(`#${index} ${vector.function}: ${vector.name}`, () => {
      const problems: string[] = [];
      compare(
        vector.name,
        handlers[vector.function](decode(vector.inputs)),
        decode(vector.expected),
        vector.tol,
        problems,
      );
      expect(problems).toEqual([]);
    });
});
