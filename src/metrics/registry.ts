/**
 * Every metric and aggregation a task can name. Names, directions and default aggregations follow lm-eval's
 * registry (lm_eval/api/metrics.py), except `ter` (see ter.ts); `squad_f1`, `rouge1/2/L`, and the JSONL
 * metrics are assay's.
 */
import { AssayError, closestNames } from '../errors.js';
import {
  bitsPerByte,
  brierScore,
  bypass,
  mean,
  median,
  nanmean,
  perplexity,
  trueMedian,
  weightedPerplexity,
} from './aggregations.js';
import { bleuAggregation, bleuMetric } from './bleu.js';
import { chrfAggregation, chrfMetric } from './chrf.js';
import { exactMatchMetric } from './exact-match.js';
import { f1Aggregation, f1Metric } from './f1.js';
import { jsonlExactMatchMetric } from './jsonl-exact-match.js';
import { llmJudgeMetric } from './llm-judge.js';
import {
  accBytesMetric,
  accMetric,
  accMutualInfoMetric,
  accNormMetric,
  bitsPerByteMetric,
  brierScoreMetric,
  bypassMetric,
  bytePerplexityMetric,
  likelihoodMetric,
  perplexityMetric,
  tokenPerplexityMetric,
  wordPerplexityMetric,
} from './loglikelihood.js';
import { matthewsCorrcoefAggregation, mccMetric } from './matthews-corrcoef.js';
import { multipleChoiceMetric } from './multiple-choice.js';
import { rouge1Metric, rouge2Metric, rougeLMetric } from './rouge.js';
import { rougeLJsonlMetric } from './rouge-l.js';
import { squadF1Metric } from './squad-f1.js';
import { substringContainsMetric } from './substring-contains.js';
import { terAggregation, terMetric } from './ter.js';
import type { AggregationFunction, MetricDefinition } from './types.js';

export type MetricName =
  | 'acc'
  | 'acc_norm'
  | 'acc_bytes'
  | 'acc_mutual_info'
  | 'likelihood'
  | 'brier_score'
  | 'perplexity'
  | 'word_perplexity'
  | 'byte_perplexity'
  | 'bits_per_byte'
  | 'token_perplexity'
  | 'exact_match'
  | 'f1'
  | 'mcc'
  | 'squad_f1'
  | 'bleu'
  | 'chrf'
  | 'ter'
  | 'rouge1'
  | 'rouge2'
  | 'rougeL'
  | 'rouge_l'
  | 'substring_contains'
  | 'jsonl_exact_match'
  | 'multiple_choice'
  | 'llm_judge'
  | 'bypass';

export type AggregationName =
  | 'mean'
  | 'median'
  | 'perplexity'
  | 'weighted_perplexity'
  | 'bits_per_byte'
  | 'f1'
  | 'matthews_corrcoef'
  | 'bleu'
  | 'chrf'
  | 'ter'
  | 'brier_score'
  | 'nanmean'
  | 'bypass'
  /** assay's: the statistical median, where lm-eval's `median` is the upper middle value. */
  | 'true_median';

export const METRICS: Record<MetricName, MetricDefinition> = {
  acc: accMetric,
  acc_norm: accNormMetric,
  acc_bytes: accBytesMetric,
  acc_mutual_info: accMutualInfoMetric,
  likelihood: likelihoodMetric,
  brier_score: brierScoreMetric,
  perplexity: perplexityMetric,
  word_perplexity: wordPerplexityMetric,
  byte_perplexity: bytePerplexityMetric,
  bits_per_byte: bitsPerByteMetric,
  token_perplexity: tokenPerplexityMetric,
  exact_match: exactMatchMetric,
  f1: f1Metric,
  mcc: mccMetric,
  squad_f1: squadF1Metric,
  bleu: bleuMetric,
  chrf: chrfMetric,
  ter: terMetric,
  rouge1: rouge1Metric,
  rouge2: rouge2Metric,
  rougeL: rougeLMetric,
  rouge_l: rougeLJsonlMetric,
  substring_contains: substringContainsMetric,
  jsonl_exact_match: jsonlExactMatchMetric,
  multiple_choice: multipleChoiceMetric,
  llm_judge: llmJudgeMetric,
  bypass: bypassMetric,
};

export const AGGREGATIONS: Record<AggregationName, AggregationFunction> = {
  mean,
  median,
  perplexity,
  weighted_perplexity: weightedPerplexity,
  bits_per_byte: bitsPerByte,
  f1: f1Aggregation,
  matthews_corrcoef: matthewsCorrcoefAggregation,
  bleu: bleuAggregation,
  chrf: chrfAggregation,
  ter: terAggregation,
  brier_score: brierScore,
  nanmean,
  bypass,
  true_median: trueMedian,
};

function unknown(
  code: 'unknown_metric' | 'unknown_aggregation',
  kind: string,
  name: string,
  valid: string[],
): never {
  const suggestions = closestNames(name, valid);
  throw new AssayError(
    code,
    `unknown ${kind} ${JSON.stringify(name)}${suggestions.length ? ` (did you mean ${suggestions.join(', ')}?)` : ''}; valid ${kind}s: ${valid.join(', ')}`,
    { location: { field: 'metric_list' } },
  );
}

export function isMetricName(name: string): name is MetricName {
  return Object.hasOwn(METRICS, name);
}

export function getMetric(name: string): MetricDefinition {
  if (isMetricName(name)) return METRICS[name];
  return unknown('unknown_metric', 'metric', name, Object.keys(METRICS));
}

export function getAggregation(name: string): AggregationFunction {
  if (Object.hasOwn(AGGREGATIONS, name)) return AGGREGATIONS[name as AggregationName];
  return unknown('unknown_aggregation', 'aggregation', name, Object.keys(AGGREGATIONS));
}
