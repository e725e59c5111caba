/**
 * McNemar's test on paired 0/1 scores. Only the discordant pairs carry information: n01 items that A got
 * right and B wrong, n10 the reverse. Under H₀ each discordant pair goes either way with probability ½.
 *
 * The reported `pValue` follows the rule the comparison report states: the exact binomial test when there
 * are fewer than 25 discordant pairs, otherwise the chi-square test with continuity correction. The mid-p
 * (exact p minus half the probability of the observed split; Fagerland et al. 2013 recommend it) is given
 * alongside. The continuity correction follows R's `mcnemar.test`, which applies it only when n01 ≠ n10;
 * statsmodels applies it always, so for n01 = n10 statsmodels gives χ² = 1/n where R and assay give 0.
 */
import { binomialTest } from './binomial-test.js';
import { binomialCdf, binomialPmf, chiSquareSf, normalQuantile } from './distributions.js';
import { requireNonNegativeInteger } from './validate.js';

/** Below this many discordant pairs the exact test is the reported one. */
export const MCNEMAR_EXACT_BELOW = 25;

export interface McNemarResult {
  /** Items right under A and wrong under B. */
  n01: number;
  /** Items wrong under A and right under B. */
  n10: number;
  discordant: number;
  /** Which p-value `pValue` is. */
  method: 'exact' | 'chi-square-cc';
  pValue: number;
  exactPValue: number;
  midPValue: number;
  /** (|n01 − n10| − 1)² / (n01 + n10), 0 when n01 = n10 (R's convention); NaN with no discordant pairs. */
  chiSquareCorrected: number;
  pValueChiSquareCorrected: number;
  /** (n01 − n10)² / (n01 + n10), no continuity correction. */
  chiSquare: number;
  pValueChiSquare: number;
  /** (n01 − n10) / √(n01 + n10): positive when A wins more discordant pairs. */
  z: number;
}

export function mcnemarTest(n01: number, n10: number): McNemarResult {
  requireNonNegativeInteger('mcnemarTest', 'n01', n01);
  requireNonNegativeInteger('mcnemarTest', 'n10', n10);
  const discordant = n01 + n10;
  if (discordant === 0) {
    // No discordant pairs: the data cannot tell A from B. p = 1; the chi-square statistic is 0/0 (R: NaN).
    return {
      n01,
      n10,
      discordant,
      method: 'exact',
      pValue: 1,
      exactPValue: 1,
      midPValue: 1,
      chiSquareCorrected: Number.NaN,
      pValueChiSquareCorrected: Number.NaN,
      chiSquare: Number.NaN,
      pValueChiSquare: Number.NaN,
      z: Number.NaN,
    };
  }
  const smaller = Math.min(n01, n10);
  const exactPValue = binomialTest(smaller, discordant, 0.5);
  const midPValue = Math.min(
    1,
    2 *
      ((smaller > 0 ? binomialCdf(smaller - 1, discordant, 0.5) : 0) +
        0.5 * binomialPmf(smaller, discordant, 0.5)),
  );
  const chiSquareCorrected = n01 === n10 ? 0 : (Math.abs(n01 - n10) - 1) ** 2 / discordant;
  const chiSquare = (n01 - n10) ** 2 / discordant;
  const pValueChiSquareCorrected = chiSquareSf(chiSquareCorrected, 1);
  const method = discordant < MCNEMAR_EXACT_BELOW ? 'exact' : 'chi-square-cc';
  return {
    n01,
    n10,
    discordant,
    method,
    pValue: method === 'exact' ? exactPValue : pValueChiSquareCorrected,
    exactPValue,
    midPValue,
    chiSquareCorrected,
    pValueChiSquareCorrected,
    chiSquare,
    pValueChiSquare: chiSquareSf(chiSquare, 1),
    z: (n01 - n10) / Math.sqrt(discordant),
  };
}

/**
 * The smallest |n10 − n01| that `mcnemarTest` rejects at `alpha` (two-sided) among the tables with
 * `discordant` discordant pairs, or Infinity when none does (|n10 − n01| has the parity of `discordant`).
 * The exact test's p decreases as the split grows more uneven; so does the χ² statistic.
 */
export function mcnemarRejectionThreshold(discordant: number, alpha: number): number {
  requireNonNegativeInteger('mcnemarRejectionThreshold', 'discordant', discordant);
  if (discordant >= MCNEMAR_EXACT_BELOW) {
    // (d − 1)²/D > χ²₁(1 − α) = z², z the normal (1 − α/2) quantile: d > 1 + z√D.
    const bound = 1 + normalQuantile(1 - alpha / 2) * Math.sqrt(discordant);
    let d = Math.floor(bound) + 1;
    if ((d - discordant) % 2 !== 0) d++;
    // The χ² p-value as mcnemarTest computes it decides the cases next to the bound.
    while (d - 2 >= 0 && mcnemarTest((discordant - (d - 2)) / 2, (discordant + d - 2) / 2).pValue < alpha)
      d -= 2;
    while (d <= discordant && !(mcnemarTest((discordant - d) / 2, (discordant + d) / 2).pValue < alpha))
      d += 2;
    return d <= discordant ? d : Infinity;
  }
  for (let d = discordant % 2; d <= discordant; d += 2)
    if (mcnemarTest((discordant - d) / 2, (discordant + d) / 2).pValue < alpha) return d;
  return Infinity;
}
