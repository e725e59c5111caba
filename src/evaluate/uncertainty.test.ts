import { describe, expect, it } from 'vitest';
import { median, trueMedian } from '../metrics/aggregations.js';
import { bootstrapStderr } from '../stats/bootstrap-stderr.js';
import { intervalFor, stderrFor } from './uncertainty.js';

describe('stderrFor the medians', () => {
  const items = [0.5, 1.25, 3.0, 0.0, 2.5, 4.75, 1.0, 0.25, 3.5, 2.0, 1.5, 9.0];

  it('bootstraps lm-eval’s median and the true median, each with its own statistic', () => {
    // CPython running lm-eval's bootstrap procedure (test/fixtures/stats/edge_vectors.json): 0.75599 for
    // lm-eval's median and 0.66672 for statistics.median at 2,000 iterations; the seeded fast bootstrap
    // agrees up to Monte Carlo error (≈ 1.6% at 2,000 replicates).
    const lmEval = stderrFor('median', median, items, 2000) as number;
    const statistical = stderrFor('true_median', trueMedian, items, 2000) as number;
    expect(Math.abs(lmEval - 0.7559890833352472) / 0.7559890833352472).toBeLessThan(0.06);
    expect(Math.abs(statistical - 0.6667249533544256) / 0.6667249533544256).toBeLessThan(0.06);
    // The counts shortcut computes the same statistic as the aggregation itself.
    expect(lmEval).toBe(bootstrapStderr((sample: readonly number[]) => median([...sample]), items, 2000));
    expect(statistical).toBe(
      bootstrapStderr((sample: readonly number[]) => trueMedian([...sample]), items, 2000),
    );
    expect(intervalFor('true_median', trueMedian, 1.75, statistical, items)?.method).toBe(
      'percentile-bootstrap',
    );
  });
});
