/**
 * One-sided tests and confidence bounds for the mean of values that lie in a known range [low, high],
 * valid at every n whatever the distribution in that range: a betting test (Waudby-Smith & Ramdas 2024,
 * "Estimating means of bounded random variables by betting", JRSS-B 86(1), §4 and §5). Hand-written: no
 * npm package implements it.
 *
 * Rescaled to y ∈ [0, 1], H₀ "mean ≤ m" is tested with the capital
 *
 *   K(m) = ∏ₜ (1 + λₜ(m)·(yₜ − m)),   λₜ(m) = min(λ̃ₜ, c/m),
 *
 * which under H₀ is a non-negative supermartingale with K₀ = 1 for any bets λₜ ≥ 0 fixed before yₜ is
 * seen, so E[K] ≤ 1 and p = min(1, 1/K) is a valid p-value (Markov's inequality) at every n, with no
 * normal approximation. λ̃ₜ is the paper's predictable plug-in tuned to a fixed n, √(2 log(1/α)/(n·σ̂²ₜ₋₁)),
 * with σ̂²ₜ = (¼ + Σᵢ≤ₜ (yᵢ − μ̂ᵢ)²)/(t + 1) and μ̂ₜ = (½ + Σᵢ≤ₜ yᵢ)/(t + 1); the cap c/m (c = 0.9) keeps every
 * factor ≥ 1 − c, so one value at the bottom of the range cannot wipe the capital out.
 *
 * The bets depend on the order of the values, and the test needs an order that carries no information:
 * the values are taken in `permutations` seeded random orders and the capitals averaged (an average of
 * e-values is an e-value, §5 of the paper), which also makes the result stable. H₀ "mean ≥ m" is the same
 * test on 1 − y. K(m) decreases in m (each factor does, for λ̃ₜ fixed and for c/m alike), so the bounds
 * {m : p(m) > α} are intervals and "lower bound > m₀" agrees with "p(m₀) ≤ α" up to the bisection's 1e-12.
 *
 * The price of validity at every n is power: for a mean near m with spread σ the test needs about
 * (√(2 log(1/α)) + z_power)²·σ²/Δ² values where a t-test needs (z_{1−α} + z_power)²·σ²/Δ² (Δ the distance
 * from m), about 1.75× as many at α = 0.05 and 80% power (docs/statistics.md has measured figures).
 */
import { normalQuantile } from './distributions.js';
import { FastRandom } from './fast-random.js';
import { badArgument, requireFiniteValues, requireProbability } from './validate.js';

export interface BoundedMeanTestOptions {
  /** The known range of every value. */
  low: number;
  high: number;
  /** The level the bets are tuned for (the test is valid at every level). */
  alpha: number;
  /** Seeded random orders whose capitals are averaged. Default 8. */
  permutations?: number;
  seed?: number;
  /** Largest share of the capital one bet may lose to a value at the end of the range. Default 0.9. */
  cap?: number;
}

/**
 * Largest share of the capital a bet may lose to one value at the end of the range. The paper uses ½ or
 * ¾ for time-uniform sequences; for a test at one n, 0.9 passed 5–10 points more of the gate's no-change
 * designs at the same size (bench/stats.ts).
 */
const CAP = 0.9;
const TOLERANCE = 1e-12;

export class BoundedMeanTest {
  readonly n: number;
  readonly low: number;
  readonly high: number;
  readonly alpha: number;
  /** Per permutation: the rescaled values in that order, and the plug-in bets λ̃. */
  private readonly orders: Float64Array[] = [];
  private readonly bets: Float64Array[] = [];
  private readonly allZero: boolean;
  private readonly allOne: boolean;
  private readonly cap: number;

  constructor(values: ArrayLike<number>, options: BoundedMeanTestOptions) {
    const where = 'BoundedMeanTest';
    requireFiniteValues(where, 'values', values, 1);
    requireProbability(where, 'alpha', options.alpha);
    const { low, high } = options;
    if (!(Number.isFinite(low) && Number.isFinite(high) && low < high))
      throw badArgument(where, `the range must be finite with low < high, got [${low}, ${high}]`);
    const n = values.length;
    const permutations = options.permutations ?? 8;
    if (!(Number.isInteger(permutations) && permutations >= 1))
      throw badArgument(where, `permutations must be a positive integer, got ${permutations}`);
    const scaled = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (!(values[i] >= low && values[i] <= high))
        throw badArgument(where, `values[${i}] = ${values[i]} is outside the range [${low}, ${high}]`);
      scaled[i] = (values[i] - low) / (high - low);
    }
    this.n = n;
    this.low = low;
    this.high = high;
    this.alpha = options.alpha;
    this.cap = options.cap ?? CAP;
    if (!(this.cap > 0 && this.cap < 1)) throw badArgument(where, `cap must be in (0, 1), got ${this.cap}`);
    this.allZero = scaled.every((y) => y === 0);
    this.allOne = scaled.every((y) => y === 1);
    const random = new FastRandom(options.seed ?? 0);
    const scale = (2 * Math.log(1 / options.alpha)) / n;
    for (let p = 0; p < permutations; p++) {
      const order = Float64Array.from(scaled);
      // Fisher-Yates with 32-bit draws (n < 2³² always here).
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor((random.nextUint32() / 4294967296) * (i + 1));
        const swap = order[i];
        order[i] = order[j];
        order[j] = swap;
      }
      const bet = new Float64Array(n);
      let sum = 0;
      let squares = 0;
      let variance = 0.25;
      for (let t = 0; t < n; t++) {
        bet[t] = Math.sqrt(scale / variance);
        sum += order[t];
        const running = (0.5 + sum) / (t + 2);
        squares += (order[t] - running) ** 2;
        variance = (0.25 + squares) / (t + 2);
      }
      this.orders.push(order);
      this.bets.push(bet);
    }
  }

  /** log of the averaged capital against H₀ "mean of y ≤ m" (y rescaled; `reflect` tests 1 − y). */
  private logCapital(m: number, reflect: boolean): number {
    const cap = this.cap / m;
    const logs = this.orders.map((order, p) => {
      const bet = this.bets[p];
      let log = 0;
      for (let t = 0; t < this.n; t++) {
        const y = reflect ? 1 - order[t] : order[t];
        const lambda = Math.min(bet[t], cap);
        log += Math.log1p(lambda * (y - m));
      }
      return log;
    });
    const top = Math.max(...logs);
    if (top === -Infinity) return top;
    return top + Math.log(logs.reduce((total, log) => total + Math.exp(log - top), 0) / logs.length);
  }

  /** p of H₀ "mean ≤ m" (rescaled), or of "mean ≥ m" when `reflect`. */
  private rescaledP(m: number, reflect: boolean): number {
    // H₀ "mean ≤ 0" holds only if every value is 0; "mean ≤ 1" always holds.
    if (m <= 0) return (reflect ? this.allOne : this.allZero) ? 1 : 0;
    if (m >= 1) return 1;
    return Math.min(1, Math.exp(-this.logCapital(m, reflect)));
  }

  private rescale(mean: number): number {
    return (mean - this.low) / (this.high - this.low);
  }

  /** p of H₀ "the mean is ≤ mean0" (small when the values show a larger mean). */
  pGreater(mean0: number): number {
    return this.rescaledP(this.rescale(mean0), false);
  }

  /** p of H₀ "the mean is ≥ mean0". */
  pLess(mean0: number): number {
    return this.rescaledP(1 - this.rescale(mean0), true);
  }

  /** One-sided (1 − α) lower bound: the largest mean0 that `pGreater` rejects at α (`low` when none is). */
  lowerBound(): number {
    const m = this.crossing(false);
    return this.low + m * (this.high - this.low);
  }

  /** One-sided (1 − α) upper bound: the smallest mean0 that `pLess` rejects at α (`high` when none is). */
  upperBound(): number {
    const m = this.crossing(true);
    return this.high - m * (this.high - this.low);
  }

  /**
   * The rescaled m ∈ [0, 1] where p(m) crosses α (p increases with m): the largest m whose log-capital
   * reaches log(1/α), to 1e-12, with the root kept bracketed.
   */
  private crossing(reflect: boolean): number {
    const target = Math.log(1 / this.alpha);
    const f = (m: number) => this.logCapital(m, reflect) - target;
    let low = TOLERANCE;
    let fLow = f(low);
    if (fLow < 0) return 0;
    let high = 1 - TOLERANCE;
    let fHigh = f(high);
    if (fHigh >= 0) return high;
    for (let iteration = 0; high - low > TOLERANCE; iteration++) {
      // Secant steps converge in a few capitals on this smooth, monotone function; every third step
      // bisects, so the bracket at least halves every three steps whatever the secant does.
      let middle = iteration % 3 === 2 ? (low + high) / 2 : (low * fHigh - high * fLow) / (fHigh - fLow);
      if (!(middle > low && middle < high)) middle = (low + high) / 2;
      // A secant step that lands within the tolerance of an end probes the other side of the root too.
      if (middle - low < TOLERANCE / 2) middle = Math.min(low + TOLERANCE / 2, high);
      else if (high - middle < TOLERANCE / 2) middle = Math.max(high - TOLERANCE / 2, low);
      const value = f(middle);
      if (value >= 0) {
        low = middle;
        fLow = value;
      } else {
        high = middle;
        fHigh = value;
      }
    }
    return low;
  }

  /**
   * Values that would let the test reject H₀ "mean ≤ mean0" (or "≥" for `less`) with probability `power`
   * if they looked like these: the smallest N whose expected log-capital, less z_power standard deviations,
   * reaches log(1/α), with the bets tuned to N. null when the values do not lean away from H₀.
   */
  itemsNeeded(mean0: number, side: 'greater' | 'less', power: number): number | null {
    const reflect = side === 'less';
    const m = reflect ? 1 - this.rescale(mean0) : this.rescale(mean0);
    if (!(m > 0 && m < 1)) return null;
    const ys = this.orders[0];
    let sum = 0;
    for (const y of ys) sum += reflect ? 1 - y : y;
    const mean = sum / this.n;
    if (!(mean > m)) return null;
    let variance = 0;
    for (const y of ys) variance += ((reflect ? 1 - y : y) - mean) ** 2;
    variance = Math.max(variance / this.n, 1e-12);
    const target = Math.log(1 / this.alpha);
    const z = normalQuantile(power);
    const enough = (items: number) => {
      const lambda = Math.min(Math.sqrt((2 * target) / (items * variance)), this.cap / m);
      let drift = 0;
      let spread = 0;
      for (const y of ys) {
        const step = Math.log1p(lambda * ((reflect ? 1 - y : y) - m));
        drift += step;
        spread += step * step;
      }
      drift /= this.n;
      spread = Math.sqrt(Math.max(0, spread / this.n - drift * drift));
      return items * drift - z * Math.sqrt(items) * spread >= target;
    };
    let high = 2;
    while (!enough(high)) {
      high *= 2;
      if (high > 1e12) return null;
    }
    let low = high / 2;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (enough(middle)) high = middle;
      else low = middle;
    }
    return high;
  }
}
