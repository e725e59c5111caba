/**
 * Paired t-test on the differences x − y, as `scipy.stats.ttest_rel(x, y)`: t = mean(d) / (sd(d)/√n),
 * df = n − 1. When every difference is the same, sd(d) = 0 and SciPy returns t = ±∞, p = 0 (or NaN when
 * the mean difference is 0 too); assay returns the same numbers and sets `zeroVariance` so the report can
 * say "undefined: zero variance" instead of presenting p = 0 as evidence.
 */
import type { Alternative } from './alternative.js';
import { mean, sampleStddev } from './descriptive.js';
import { studentTCdf, studentTQuantile, studentTSf } from './distributions.js';
import type { Interval } from './proportion-interval.js';
import { requireFiniteValues, requireProbability, requireSameLength } from './validate.js';

export interface PairedTTestResult {
  /** mean(x − y). */
  meanDifference: number;
  standardDeviation: number;
  standardError: number;
  t: number;
  degreesOfFreedom: number;
  pValue: number;
  alternative: Alternative;
  /** Two-sided interval for the mean difference at `confidence`. */
  interval: Interval & { confidence: number };
  zeroVariance: boolean;
}

export function pairedTTest(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  options: { alternative?: Alternative; confidence?: number } = {},
): PairedTTestResult {
  const where = 'pairedTTest';
  requireSameLength(where, x, y, 'x and y');
  requireFiniteValues(where, 'x', x, 2);
  requireFiniteValues(where, 'y', y, 2);
  const alternative = options.alternative ?? 'two-sided';
  const confidence = options.confidence ?? 0.95;
  requireProbability(where, 'confidence', confidence);
  const differences = Float64Array.from({ length: x.length }, (_, i) => x[i] - y[i]);
  const meanDifference = mean(differences);
  const standardDeviation = sampleStddev(differences);
  const n = differences.length;
  const standardError = standardDeviation / Math.sqrt(n);
  const degreesOfFreedom = n - 1;
  const t = meanDifference / standardError; // ±Infinity or NaN when standardError is 0, as in SciPy
  let pValue: number;
  if (alternative === 'less') pValue = studentTCdf(t, degreesOfFreedom);
  else if (alternative === 'greater') pValue = studentTSf(t, degreesOfFreedom);
  else pValue = Number.isNaN(t) ? Number.NaN : Math.min(1, 2 * studentTSf(Math.abs(t), degreesOfFreedom));
  const half = studentTQuantile(0.5 + confidence / 2, degreesOfFreedom) * standardError;
  return {
    meanDifference,
    standardDeviation,
    standardError,
    t,
    degreesOfFreedom,
    pValue,
    alternative,
    interval: { low: meanDifference - half, high: meanDifference + half, confidence },
    zeroVariance: standardDeviation === 0,
  };
}
