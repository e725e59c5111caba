/** A `filter_list` entry of a task config and its steps, as lm-eval's YAML writes them (built by metrics/filters/). */
import type { FunctionRef } from './function-ref.js';

export interface FilterStepConfig {
  /** A registered filter's name, or a filter class given as `!function utils.MyFilter`. */
  function: string | FunctionRef;
  [arg: string]: unknown;
}

export interface FilterConfig {
  name: string;
  filter: FilterStepConfig[];
}
