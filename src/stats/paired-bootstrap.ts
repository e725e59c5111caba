/**
 * Paired bootstrap interval for the mean difference candidate − baseline: items are resampled as pairs
 * (which keeps the per-item correlation between the two runs), the mean difference recomputed on each
 * resample with the fast seeded bootstrap, and a percentile or BCa interval read off the replicates.
 */

import {
  type BootstrapInterval,
  type BootstrapIntervalMethod,
  bcaAcceleration,
  bootstrapInterval,
} from './bootstrap-interval.js';
import { bootstrapReplicates, meanFromCounts } from './bootstrap-stderr.js';
import { mean, sampleStddev } from './descriptive.js';
import { requireFiniteValues, requireSameLength } from './validate.js';

export interface PairedBootstrapOptions {
  iterations?: number;
  seed?: number;
  confidence?: number;
  method?: BootstrapIntervalMethod;
}

export interface PairedBootstrapResult extends BootstrapInterval {
  /** mean(candidate − baseline). */
  difference: number;
  /** Bootstrap standard error of the difference (n − 1 stddev of the replicates). */
  standardError: number;
  iterations: number;
  seed: number;
}

export function pairedBootstrapInterval(
  baseline: ArrayLike<number>,
  candidate: ArrayLike<number>,
  options: PairedBootstrapOptions = {},
): PairedBootstrapResult {
  const where = 'pairedBootstrapInterval';
  requireSameLength(where, baseline, candidate, 'baseline and candidate');
  requireFiniteValues(where, 'baseline', baseline, 2);
  requireFiniteValues(where, 'candidate', candidate, 2);
  const iterations = options.iterations ?? 10_000;
  const seed = options.seed ?? 0;
  const method = options.method ?? 'percentile';
  const differences = Array.from({ length: baseline.length }, (_, i) => candidate[i] - baseline[i]);
  const difference = mean(differences);
  const replicates = bootstrapReplicates(mean, differences, iterations, { seed, fromCounts: meanFromCounts });
  const interval = bootstrapInterval(replicates, {
    method,
    confidence: options.confidence,
    observed: difference,
    acceleration: method === 'bca' ? bcaAcceleration(differences).acceleration : undefined,
  });
  return { ...interval, difference, standardError: sampleStddev(replicates), iterations, seed };
}
