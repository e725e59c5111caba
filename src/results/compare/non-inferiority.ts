/**
 * The per-task test behind `assay gate`: is B non-inferior to A within the margin, or worse than it?
 * Everything is oriented so that positive = better (lower-is-better metrics are flipped).
 */
import { isBinary, mean, sampleStddev } from '../../stats/descriptive.js';
import { normalQuantile, studentTCdf, studentTQuantile, studentTSf } from '../../stats/distributions.js';

export type NonInferiorityMethod = 'paired-t';

export interface NonInferiorityOptions {
  /** The margin m ≥ 0, in metric units: H₀ of non-inferiority is "improvement ≤ −m". */
  margin: number;
  alpha: number;
  /** Power used to estimate the items an undecided task would need. */
  power: number;
  higherIsBetter: boolean;
}

export interface NonInferiority {
  method: NonInferiorityMethod;
  n: number;
  /** Mean oriented difference (B − A, or A − B for lower-is-better metrics). */
  improvement: number;
  standardError: number;
  /** One-sided (1 − α) bounds of the improvement. */
  lowerBound: number;
  upperBound: number;
  /** p of H₀ improvement ≤ −m (non-inferiority): a small value passes. */
  pNonInferiority: number;
  /** p of H₀ improvement ≥ −m: a small value (after adjustment across tasks) fails. */
  pInferiority: number;
  /** Items that would decide with the given power if the true change were the observed one. */
  itemsNeeded: number | null;
}

/** Paired 0/1 scores, oriented: `rightToWrong` items got worse, `wrongToRight` better. */
export interface PairedProportionCounts {
  n: number;
  rightToWrong: number;
  wrongToRight: number;
}

interface Measured {
  n: number;
  improvement: number;
  standardError: number;
  sd: number;
}

function pairedT(measured: Measured, options: NonInferiorityOptions): NonInferiority {
  const { margin, alpha, power } = options;
  const shifted = measured.improvement + margin;
  let pNonInferiority: number;
  let pInferiority: number;
  if (measured.standardError === 0) {
    // Every item moved by the same amount: the sign of the shifted mean settles it without noise.
    pNonInferiority = shifted > 0 ? 0 : 1;
    pInferiority = shifted < 0 ? 0 : 1;
  } else {
    const t = shifted / measured.standardError;
    pNonInferiority = studentTSf(t, measured.n - 1);
    pInferiority = studentTCdf(t, measured.n - 1);
  }
  const critical = measured.standardError === 0 ? 0 : studentTQuantile(1 - alpha, measured.n - 1);
  const distance = Math.abs(shifted);
  return {
    method: 'paired-t',
    n: measured.n,
    improvement: measured.improvement,
    standardError: measured.standardError,
    lowerBound: measured.improvement - critical * measured.standardError,
    upperBound: measured.improvement + critical * measured.standardError,
    pNonInferiority,
    pInferiority,
    itemsNeeded:
      distance === 0 || measured.sd === 0
        ? null
        : Math.ceil((((normalQuantile(1 - alpha) + normalQuantile(power)) * measured.sd) / distance) ** 2),
  };
}

/** The test for paired 0/1 scores, from the flip counts alone. */
export function pairedProportionNonInferiority(
  counts: PairedProportionCounts,
  options: NonInferiorityOptions,
): NonInferiority {
  const { n, rightToWrong, wrongToRight } = counts;
  const improvement = (wrongToRight - rightToWrong) / n;
  const sd = Math.sqrt(Math.max(0, (wrongToRight + rightToWrong - n * improvement ** 2) / (n - 1)));
  return pairedT({ n, improvement, sd, standardError: sd / Math.sqrt(n) }, options);
}

/** Non-inferiority of B against A on paired per-item scores. */
export function nonInferiority(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: NonInferiorityOptions,
): NonInferiority {
  const n = a.length;
  const sign = options.higherIsBetter ? 1 : -1;
  if (isBinary(a) && isBinary(b)) {
    let rightToWrong = 0;
    let wrongToRight = 0;
    for (let i = 0; i < n; i++) {
      const change = sign * (b[i] - a[i]);
      if (change < 0) rightToWrong++;
      else if (change > 0) wrongToRight++;
    }
    return pairedProportionNonInferiority({ n, rightToWrong, wrongToRight }, options);
  }
  const improvements = Float64Array.from({ length: n }, (_, i) => sign * (b[i] - a[i]));
  const sd = sampleStddev(improvements);
  return pairedT({ n, improvement: mean(improvements), sd, standardError: sd / Math.sqrt(n) }, options);
}
