import { describe, expect, it } from 'vitest';
import { caughtSync } from '../../test/support/caught.js';
import { AGGREGATIONS, getAggregation, getMetric, METRICS } from './registry.js';

describe('metric registry', () => {
  it('follows lm-eval for direction and default aggregation (ter excepted)', () => {
    const facts = Object.fromEntries(
      Object.entries(METRICS).map(([name, metric]) => [
        name,
        [metric.higherIsBetter, metric.defaultAggregation],
      ]),
    );
    // lm_eval/api/metrics.py register_metric(...) entries at 4e7e0d47.
    expect(facts).toMatchObject({
      acc: [true, 'mean'],
      acc_norm: [true, 'mean'],
      acc_bytes: [true, 'mean'],
      acc_mutual_info: [true, 'mean'],
      likelihood: [true, 'mean'],
      brier_score: [false, 'brier_score'],
      perplexity: [false, 'perplexity'],
      word_perplexity: [false, 'weighted_perplexity'],
      byte_perplexity: [false, 'weighted_perplexity'],
      bits_per_byte: [false, 'bits_per_byte'],
      exact_match: [true, 'mean'],
      f1: [true, 'f1'],
      mcc: [true, 'matthews_corrcoef'],
      bleu: [true, 'bleu'],
      chrf: [true, 'chrf'],
      ter: [false, 'ter'],
      bypass: [true, 'bypass'],
    });
  });

  it('every default aggregation exists, and each metric knows its own name', () => {
    for (const [name, metric] of Object.entries(METRICS)) {
      expect(metric.name).toBe(name);
      expect(Object.keys(AGGREGATIONS)).toContain(metric.defaultAggregation);
    }
  });

  it('log-likelihood metrics have no compute; generation metrics do', () => {
    expect(METRICS.acc.compute).toBeUndefined();
    expect(METRICS.exact_match.compute).toBeDefined();
  });

  it('an unknown metric lists the valid ones and suggests the closest', () => {
    const error = caughtSync(() => getMetric('exact_mach'));
    expect(error.code).toBe('unknown_metric');
    expect(error.message).toMatch(/did you mean exact_match/);
    expect(error.message).toMatch(/valid metrics: acc, acc_norm/);
  });

  it('an unknown aggregation lists the valid ones', () => {
    const error = caughtSync(() => getAggregation('avg'));
    expect(error.code).toBe('unknown_aggregation');
    expect(error.message).toMatch(/valid aggregations: mean, median, perplexity/);
    expect(getAggregation('mean')([1, 2])).toBe(1.5);
  });
});
