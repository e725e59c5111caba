/**
 * Metrics the evaluator computes from log-likelihood results (lm-eval's passthrough metrics): each sample
 * already holds its value, and these entries carry only the registry facts — direction and aggregation —
 * from lm_eval/api/metrics.py.
 */
import type { MetricDefinition } from './types.js';

const passthrough = (
  name: string,
  higherIsBetter: boolean,
  defaultAggregation: string,
): MetricDefinition => ({
  name,
  higherIsBetter,
  defaultAggregation,
});

export const accMetric = passthrough('acc', true, 'mean');
export const accNormMetric = passthrough('acc_norm', true, 'mean');
export const accBytesMetric = passthrough('acc_bytes', true, 'mean');
export const accMutualInfoMetric = passthrough('acc_mutual_info', true, 'mean');
/** (gold, log-likelihoods) per sample; lm-eval aggregates it with `mean`. */
export const likelihoodMetric = passthrough('likelihood', true, 'mean');
/** (gold index, softmax of the log-likelihoods) per sample. */
export const brierScoreMetric = passthrough('brier_score', false, 'brier_score');
/** The continuation's log-likelihood per sample. */
export const perplexityMetric = passthrough('perplexity', false, 'perplexity');
/** (log-likelihood, words) per document. */
export const wordPerplexityMetric = passthrough('word_perplexity', false, 'weighted_perplexity');
/** (log-likelihood, UTF-8 bytes) per document. */
export const bytePerplexityMetric = passthrough('byte_perplexity', false, 'weighted_perplexity');
export const bitsPerByteMetric = passthrough('bits_per_byte', false, 'bits_per_byte');
/** (log-likelihood, scored tokens) per document; only comparable under the same tokenizer. */
export const tokenPerplexityMetric = passthrough('token_perplexity', false, 'weighted_perplexity');
/** `--predict_only`: no score, aggregation 999. */
export const bypassMetric: MetricDefinition = {
  ...passthrough('bypass', true, 'bypass'),
  compute: () => null,
};
