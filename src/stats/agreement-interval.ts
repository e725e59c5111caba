/**
 * A percentile bootstrap interval for an agreement statistic (κ, α, accuracy, consistency rate): units
 * (items, with every rater's value for them) are resampled with replacement by the seeded fast bootstrap,
 * the statistic recomputed on each resample. A resample on which the statistic is undefined (κ when both
 * raters used a single category, say) gives NaN; such replicates are counted and left out, and the
 * interval is NaN when fewer than two remain.
 */
import { bootstrapInterval } from './bootstrap-interval.js';
import { bootstrapReplicates } from './bootstrap-stderr.js';
import { badArgument } from './validate.js';

export interface AgreementIntervalOptions {
  iterations?: number;
  seed?: number;
  confidence?: number;
}

export interface AgreementInterval {
  estimate: number;
  low: number;
  high: number;
  confidence: number;
  iterations: number;
  seed: number;
  /** Replicates on which the statistic was undefined (NaN), left out of the interval. */
  undefinedReplicates: number;
}

export function agreementInterval<T>(
  units: readonly T[],
  statistic: (units: readonly T[]) => number,
  options: AgreementIntervalOptions = {},
): AgreementInterval {
  if (units.length === 0) throw badArgument('agreementInterval', 'needs at least one unit');
  const iterations = options.iterations ?? 2000;
  const seed = options.seed ?? 0;
  const confidence = options.confidence ?? 0.95;
  const estimate = statistic(units);
  // Units are grouped by position, not by value: two units with equal values are still two draws.
  const positions = units.map((_, i) => i);
  const replicates = bootstrapReplicates(
    (drawn: readonly number[]) => statistic(drawn.map((i) => units[i])),
    positions,
    iterations,
    { seed },
  );
  const defined = replicates.filter((value) => !Number.isNaN(value));
  const undefinedReplicates = replicates.length - defined.length;
  if (defined.length < 2) {
    return { estimate, low: Number.NaN, high: Number.NaN, confidence, iterations, seed, undefinedReplicates };
  }
  const { low, high } = bootstrapInterval(defined, { confidence });
  return { estimate, low, high, confidence, iterations, seed, undefinedReplicates };
}
