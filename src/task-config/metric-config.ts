/** One `metric_list` entry of a task config, as lm-eval's YAML writes it (read by metrics/ and evaluate/). */
import type { FunctionRef } from './function-ref.js';

export interface MetricConfig {
  metric: string | FunctionRef;
  aggregation?: string | FunctionRef;
  higher_is_better?: boolean;
  /** Every other key in the YAML entry is passed to the metric as a keyword argument. */
  [kwarg: string]: unknown;
}
