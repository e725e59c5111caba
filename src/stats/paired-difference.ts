/**
 * Summary of a paired comparison of two runs on the same items: the means, the difference
 * candidate − baseline, its paired standard error and interval, and the correlation of per-item scores.
 * Pairing is what makes small differences detectable: Var(d̄) = (σ²_A + σ²_B − 2·Cov(A,B))/n, so with
 * positively correlated runs the paired stderr is well below the unpaired √(SE_A² + SE_B²) (Miller 2024 §4).
 */
import { clusteredStandardError } from './clustered-stderr.js';
import { isBinary, mean, meanStderr, pearsonCorrelation, sampleCovariance } from './descriptive.js';
import { normalQuantile, normalSf, studentTQuantile } from './distributions.js';
import type { Interval } from './proportion-interval.js';
import { requireFiniteValues, requireProbability, requireSameLength } from './validate.js';

export interface PairedDifferenceOptions {
  confidence?: number;
  /** `normal` (Miller's z-interval, the default) or `t` with n − 1 degrees of freedom. */
  interval?: 'normal' | 't';
  /** Cluster of each item; adds clustered stderrs of the difference. */
  clusters?: ArrayLike<string | number>;
}

export interface FlipTable {
  /** Items the baseline got right (1) and the candidate wrong (0). */
  rightToWrong: number[];
  /** Items the baseline got wrong and the candidate right. */
  wrongToRight: number[];
}

export interface PairedDifference {
  n: number;
  baselineMean: number;
  candidateMean: number;
  /** candidateMean − baselineMean. */
  difference: number;
  standardError: number;
  /** √(SE_A² + SE_B²): what an unpaired analysis would report. */
  unpairedStandardError: number;
  covariance: number;
  /** Pearson correlation of per-item scores; NaN when either run is constant. */
  correlation: number;
  z: number;
  /** Two-sided normal p-value of z. */
  pValue: number;
  interval: Interval & { confidence: number; method: 'normal' | 't' };
  /** Clustered stderrs of the difference (Miller eq. 4, and CR1 with the C/(C−1) factor). */
  clustered?: {
    /** null with fewer than 2 clusters (see clusteredStandardError). */
    standardError: number | null;
    standardErrorCr1: number | null;
    clusterCount: number;
    note?: string;
  };
  /** Present when both runs are 0/1 scores: indices of the items that flipped. */
  flips?: FlipTable;
}

export function pairedDifference(
  baseline: ArrayLike<number>,
  candidate: ArrayLike<number>,
  options: PairedDifferenceOptions = {},
): PairedDifference {
  const where = 'pairedDifference';
  requireSameLength(where, baseline, candidate, 'baseline and candidate');
  requireFiniteValues(where, 'baseline', baseline, 2);
  requireFiniteValues(where, 'candidate', candidate, 2);
  const confidence = options.confidence ?? 0.95;
  requireProbability(where, 'confidence', confidence);
  const intervalMethod = options.interval ?? 'normal';
  const n = baseline.length;
  const differences = Float64Array.from({ length: n }, (_, i) => candidate[i] - baseline[i]);
  const difference = mean(differences);
  const standardError = meanStderr(differences);
  const z = difference / standardError;
  const critical =
    intervalMethod === 't'
      ? studentTQuantile(0.5 + confidence / 2, n - 1)
      : normalQuantile(0.5 + confidence / 2);
  const result: PairedDifference = {
    n,
    baselineMean: mean(baseline),
    candidateMean: mean(candidate),
    difference,
    standardError,
    unpairedStandardError: Math.sqrt(meanStderr(baseline) ** 2 + meanStderr(candidate) ** 2),
    covariance: sampleCovariance(baseline, candidate),
    correlation: pearsonCorrelation(baseline, candidate),
    z,
    pValue: Number.isNaN(z) ? Number.NaN : 2 * normalSf(Math.abs(z)),
    interval: {
      low: difference - critical * standardError,
      high: difference + critical * standardError,
      confidence,
      method: intervalMethod,
    },
  };
  if (options.clusters !== undefined) {
    const eq4 = clusteredStandardError(differences, options.clusters);
    const cr1 =
      eq4.clusterCount >= 2
        ? clusteredStandardError(differences, options.clusters, {
            estimator: 'sandwich',
            clusterCorrection: true,
          })
        : undefined;
    result.clustered = {
      standardError: eq4.standardError,
      standardErrorCr1: cr1?.standardError ?? null,
      clusterCount: eq4.clusterCount,
      ...(eq4.note ? { note: eq4.note } : {}),
    };
  }
  if (isBinary(baseline) && isBinary(candidate)) {
    const flips: FlipTable = { rightToWrong: [], wrongToRight: [] };
    for (let i = 0; i < n; i++) {
      if (baseline[i] === 1 && candidate[i] === 0) flips.rightToWrong.push(i);
      else if (baseline[i] === 0 && candidate[i] === 1) flips.wrongToRight.push(i);
    }
    result.flips = flips;
  }
  return result;
}
