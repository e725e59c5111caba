/**
 * The metric seam. A metric turns one sample's (references, prediction) into an item; an aggregation
 * turns the items of every sample into one number. Mean-type metrics return numbers; corpus metrics
 * (bleu, chrf, ter, f1, mcc) return pairs that their aggregation consumes whole.
 */
export interface GenerationMetricInput {
  /** Gold answers; a sample is right when it matches any of them. */
  references: string[];
  prediction: string;
  /** The extra keys of the YAML metric_list entry (ignore_case, regexes_to_ignore, …). */
  kwargs: Record<string, unknown>;
}

export type AggregationFunction = (items: unknown[]) => number;

export interface MetricDefinition {
  name: string;
  higherIsBetter: boolean;
  /** The aggregation used when metric_list names none (lm-eval's registry default). */
  defaultAggregation: string;
  /**
   * Scores one generated answer. Absent for metrics computed from log-likelihoods (acc, acc_norm, …),
   * which the evaluator computes from the request results.
   */
  compute?: (input: GenerationMetricInput) => unknown;
}
