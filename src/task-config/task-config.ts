/**
 * A task's validated config, the type the loaders (tasks/) produce and every later stage reads: data/ its
 * dataset fields, prompts/ its doc_to_* fields, python/ its functions, evaluate/ the rest. Field names
 * follow lm-eval's TaskConfig (snake_case) because they are written back to results.json as `configs`,
 * where users compare them with lm-eval's.
 */
import type { Doc } from './doc.js';
import type { FilterConfig } from './filter-config.js';
import type { DocFunction, DocsFunction, FunctionRef, ProcessResultsFunction } from './function-ref.js';
import type { MetricConfig } from './metric-config.js';
import type { OutputType } from './output-type.js';

export interface FewshotConfig {
  sampler?: 'default' | 'first_n';
  split?: string;
  samples?: Doc[] | FunctionRef;
  process_docs?: FunctionRef<DocsFunction>;
  fewshot_indices?: number[];
  doc_to_text?: TemplateField;
  doc_to_target?: TemplateField;
  doc_to_choice?: ChoiceField;
  target_delimiter?: string;
  fewshot_delimiter?: string;
  gen_prefix?: string;
}

/** A doc_to_* value: a column name or Jinja template, a constant index, or a function. */
export type TemplateField = string | number | FunctionRef<DocFunction>;
export type ChoiceField = string | string[] | Record<string | number, string> | FunctionRef<DocFunction>;

export interface TaskConfig {
  task: string;
  task_alias?: string;
  tag?: string | string[];
  dataset_path?: string;
  dataset_name?: string | null;
  dataset_kwargs?: {
    data_files?: string | string[] | Record<string, string | string[]>;
    [key: string]: unknown;
  };
  revision?: string;
  training_split?: string;
  validation_split?: string;
  test_split?: string;
  fewshot_split?: string;
  process_docs?: FunctionRef<DocsFunction>;
  doc_to_text?: TemplateField;
  doc_to_target?: TemplateField | string[];
  doc_to_choice?: ChoiceField;
  gen_prefix?: string;
  description?: string;
  target_delimiter: string;
  fewshot_delimiter: string;
  fewshot_config?: FewshotConfig;
  num_fewshot?: number;
  output_type: OutputType;
  generation_kwargs?: Record<string, unknown>;
  repeats: number;
  metric_list?: MetricConfig[];
  filter_list?: FilterConfig[];
  process_results?: FunctionRef<ProcessResultsFunction>;
  should_decontaminate?: boolean;
  doc_to_decontamination_query?: string | FunctionRef<DocFunction>;
  unsafe_code?: boolean;
  metadata?: { version?: number | string; [key: string]: unknown };
  /** assay extension: a doc field whose value clusters samples (for clustered standard errors). */
  cluster_by?: string;
}
