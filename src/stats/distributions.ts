/**
 * Typed wrappers over the @stdlib distribution functions, so the rest of `stats/` depends on one small
 * surface and never on @stdlib's CommonJS `export =` shapes. Survival functions are computed from the
 * mirrored tail where the distribution is symmetric, because `1 - cdf(x)` loses every digit once cdf(x)
 * rounds to 1 (normal sf(8) ≈ 6.2e-16 would come out as 6.7e-16).
 */
import { createRequire } from 'node:module';
import type betaQuantileFn from '@stdlib/stats-base-dists-beta-quantile';
import type binomialCdfFn from '@stdlib/stats-base-dists-binomial-cdf';
import type binomialPmfFn from '@stdlib/stats-base-dists-binomial-pmf';
import type chiSquareCdfFn from '@stdlib/stats-base-dists-chisquare-cdf';
import type chiSquareQuantileFn from '@stdlib/stats-base-dists-chisquare-quantile';
import type normalCdfFn from '@stdlib/stats-base-dists-normal-cdf';
import type normalQuantileFn from '@stdlib/stats-base-dists-normal-quantile';
import type studentTCdfFn from '@stdlib/stats-base-dists-t-cdf';
import type studentTQuantileFn from '@stdlib/stats-base-dists-t-quantile';

/**
 * Each @stdlib function is required on its first call, not when this module loads: together they pull
 * in some 460 CommonJS files (~150 ms of start-up), and most commands (a plain `assay run`) call one or
 * none of them. `require` keeps the call synchronous; the packages are CommonJS.
 */
const require = createRequire(import.meta.url);
function lazy<F>(id: string): () => F {
  let loaded: F | undefined;
  return () => {
    loaded ??= require(id) as F;
    return loaded;
  };
}
const betaQuantileImpl = lazy<typeof betaQuantileFn>('@stdlib/stats-base-dists-beta-quantile');
const binomialCdfImpl = lazy<typeof binomialCdfFn>('@stdlib/stats-base-dists-binomial-cdf');
const binomialPmfImpl = lazy<typeof binomialPmfFn>('@stdlib/stats-base-dists-binomial-pmf');
const chiSquareCdfImpl = lazy<typeof chiSquareCdfFn>('@stdlib/stats-base-dists-chisquare-cdf');
const chiSquareQuantileImpl = lazy<typeof chiSquareQuantileFn>('@stdlib/stats-base-dists-chisquare-quantile');
const normalCdfImpl = lazy<typeof normalCdfFn>('@stdlib/stats-base-dists-normal-cdf');
const normalQuantileImpl = lazy<typeof normalQuantileFn>('@stdlib/stats-base-dists-normal-quantile');
const studentTCdfImpl = lazy<typeof studentTCdfFn>('@stdlib/stats-base-dists-t-cdf');
const studentTQuantileImpl = lazy<typeof studentTQuantileFn>('@stdlib/stats-base-dists-t-quantile');

/** Standard normal CDF Φ(x). */
export function normalCdf(x: number): number {
  return normalCdfImpl()(x, 0, 1);
}

/** Standard normal survival function 1 − Φ(x), accurate in the upper tail. */
export function normalSf(x: number): number {
  return normalCdfImpl()(-x, 0, 1);
}

/**
 * Standard normal quantile Φ⁻¹(p). @stdlib computes it as √2·erfinv(2p − 1), and 2p − 1 throws away the
 * low digits of a small p (its Φ⁻¹(1e-10) is off by 1.3e-8). So the upper half is mapped to the lower by
 * symmetry (1 − p is exact for p ≥ ½) and @stdlib's value is polished with Newton steps on Φ, whose
 * lower tail @stdlib computes through erfc with full relative precision.
 */
export function normalQuantile(p: number): number {
  // The two-sided levels runs use by default (95%, and 90% and 99%) are answered from a table: loading
  // @stdlib's quantile and CDF for one z costs ~30 ms of a run's start-up. Each entry is this function's
  // own value for that p, bit for bit (distributions.test.ts computes them the long way and compares).
  const known = KNOWN_QUANTILES.get(p);
  if (known !== undefined) return known;
  return computedNormalQuantile(p);
}

/** Φ⁻¹ at the upper points of the usual two-sided levels: 0.5 + level / 2 for 90%, 95% and 99%. */
export const KNOWN_QUANTILES: ReadonlyMap<number, number> = new Map([
  [0.95, 1.6448536269514724],
  [0.975, 1.959963984540054],
  [0.995, 2.575829303548901],
]);

/** normalQuantile without the table (exported for the test that checks the table). */
export function computedNormalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return normalQuantileImpl()(p, 0, 1);
  if (p > 0.5) return -computedNormalQuantile(1 - p);
  let x = normalQuantileImpl()(p, 0, 1);
  if (!Number.isFinite(x)) {
    // Below ~1e-17, 2p − 1 rounds to −1 and @stdlib returns −∞: start from Abramowitz & Stegun 26.2.23
    // (|error| < 4.5e-4) instead.
    const t = Math.sqrt(-2 * Math.log(p));
    x = -(
      t -
      (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3)
    );
  }
  for (let iteration = 0; iteration < 8; iteration++) {
    const density = Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
    if (density === 0) break;
    const step = (normalCdfImpl()(x, 0, 1) - p) / density;
    x -= step;
    if (Math.abs(step) <= 1e-15 * Math.abs(x)) break;
  }
  return x;
}

/** Student's t CDF with `df` degrees of freedom. */
export function studentTCdf(x: number, df: number): number {
  return studentTCdfImpl()(x, df);
}

/** Student's t survival function, accurate in the upper tail (the t distribution is symmetric). */
export function studentTSf(x: number, df: number): number {
  return studentTCdfImpl()(-x, df);
}

/** Student's t quantile. */
export function studentTQuantile(p: number, df: number): number {
  return studentTQuantileImpl()(p, df);
}

/** Chi-square CDF with `df` degrees of freedom. */
export function chiSquareCdf(x: number, df: number): number {
  return chiSquareCdfImpl()(x, df);
}

/**
 * Chi-square survival function. For df = 1 it is 2·Φ(−√x) exactly, which keeps full relative precision in
 * the tail (the only df the tests here use: McNemar); other df fall back to 1 − cdf.
 */
export function chiSquareSf(x: number, df: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 1;
  if (df === 1) return 2 * normalCdfImpl()(-Math.sqrt(x), 0, 1);
  return 1 - chiSquareCdfImpl()(x, df);
}

/** Chi-square quantile. */
export function chiSquareQuantile(p: number, df: number): number {
  return chiSquareQuantileImpl()(p, df);
}

/** Binomial CDF P(X ≤ k), X ~ Binomial(n, p). */
export function binomialCdf(k: number, n: number, p: number): number {
  return binomialCdfImpl()(k, n, p);
}

/** Binomial survival function P(X > k). */
export function binomialSf(k: number, n: number, p: number): number {
  if (k < 0) return 1;
  if (k >= n) return 0;
  // P(X > k) for Binomial(n, p) equals P(Y < n − k) = P(Y ≤ n − k − 1) for Y ~ Binomial(n, 1 − p),
  // which avoids the cancellation in 1 − cdf when the upper tail is tiny.
  return binomialCdfImpl()(n - k - 1, n, 1 - p);
}

/** Binomial probability mass P(X = k). */
export function binomialPmf(k: number, n: number, p: number): number {
  return binomialPmfImpl()(k, n, p);
}

/** Beta quantile (inverse regularized incomplete beta). */
export function betaQuantile(p: number, alpha: number, beta: number): number {
  return betaQuantileImpl()(p, alpha, beta);
}
