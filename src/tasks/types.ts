/**
 * Task data types shared by the loaders (tasks/), the prompt builders (prompts/) and the evaluator.
 * Field names follow lm-eval's TaskConfig (snake_case) because they are written back to results.json
 * as `configs`, where users compare them with lm-eval's.
 */
export type OutputType = 'loglikelihood' | 'loglikelihood_rolling' | 'multiple_choice' | 'generate_until';
export const OUTPUT_TYPES: readonly OutputType[] = [
  'loglikelihood',
  'loglikelihood_rolling',
  'multiple_choice',
  'generate_until',
];

export type Doc = Record<string, unknown>;

/** A function from `!function file.name` in YAML, or given directly by a TypeScript task. */
export type DocFunction<T = unknown> = (doc: Doc) => T;
/** `context` names the task and split (Python process_docs uses it in error messages). */
export type DocsFunction = (
  docs: Doc[],
  context?: { task: string; split?: string },
) => Doc[] | Promise<Doc[]>;
/** lm-eval's `process_results(doc, results)`: results are the raw (filtered) responses for the doc. */
export type ProcessResultsFunction = (doc: Doc, results: unknown[]) => Record<string, unknown>;

/** A resolved `!function` keeps its source reference so that configs serialize as lm-eval's do. */
export interface FunctionRef<F = (...args: never[]) => unknown> {
  readonly kind: 'function';
  /** As written in YAML, e.g. `utils.process_docs`. */
  readonly ref: string;
  /** Absolute path of the module it resolves to. */
  readonly file: string;
  readonly fn: F;
}

export interface MetricConfig {
  metric: string | FunctionRef;
  aggregation?: string | FunctionRef;
  higher_is_better?: boolean;
  /** Every other key in the YAML entry is passed to the metric as a keyword argument. */
  [kwarg: string]: unknown;
}

export interface FilterStepConfig {
  /** A registered filter's name, or a filter class given as `!function utils.MyFilter`. */
  function: string | FunctionRef;
  [arg: string]: unknown;
}

export interface FilterConfig {
  name: string;
  filter: FilterStepConfig[];
}

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

/** Where a task came from, for the manifest and error messages. */
export interface TaskSource {
  /** `yaml`, `jsonl` or `typescript`. */
  format: 'yaml' | 'jsonl' | 'typescript';
  /** Absolute path of the file that defines the task. */
  path: string;
  /** sha256 of the task's content: its file plus every file it includes or imports. */
  sha256: string;
}
