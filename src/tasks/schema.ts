/**
 * Validation of task and group configs at the edge, with lm-eval's defaults. Every error names the
 * file and line that caused it; the rest of the library trusts the resulting TaskConfig.
 */
import { z } from 'zod';
import { AssayError, closestNames, type ErrorLocation } from '../errors.js';
import { buildFilterPipeline } from '../metrics/filters/registry.js';
import { parseJudgeConfig } from '../metrics/llm-judge-config.js';
import { getAggregation, getMetric } from '../metrics/registry.js';
import { OUTPUT_TYPES } from '../task-config/output-type.js';
import type { TaskConfig } from '../task-config/task-config.js';
import type { AggregateMetricConfig, GroupConfig } from './task.js';

/** Task fields assay reads (lm-eval's TaskConfig, minus the ones listed as unsupported below). */
export const TASK_FIELDS = [
  'task',
  'task_alias',
  'tag',
  'dataset_path',
  'dataset_name',
  'dataset_kwargs',
  'revision',
  'training_split',
  'validation_split',
  'test_split',
  'fewshot_split',
  'process_docs',
  'doc_to_text',
  'doc_to_target',
  'doc_to_choice',
  'gen_prefix',
  'description',
  'target_delimiter',
  'fewshot_delimiter',
  'fewshot_config',
  'num_fewshot',
  'output_type',
  'generation_kwargs',
  'repeats',
  'metric_list',
  'filter_list',
  'process_results',
  'should_decontaminate',
  'doc_to_decontamination_query',
  'unsafe_code',
  'metadata',
  'cluster_by',
] as const;

/** lm-eval fields that parse there but that assay cannot honour yet: an error beats a silent skip. */
const UNSUPPORTED_FIELDS: Record<string, string> = {
  custom_dataset: 'custom_dataset (a Python callable) is not supported; use dataset_kwargs.data_files',
  doc_to_image: 'multimodal tasks (doc_to_image) are not supported',
  doc_to_audio: 'multimodal tasks (doc_to_audio) are not supported',
  use_prompt: 'promptsource prompts (use_prompt) are not supported',
  class: 'Python task classes are not supported; write a TypeScript task with defineTask',
};

/**
 * TaskConfig fields whose lm-eval default is None: `null` there means unset (`dataset_kwargs: null` in
 * bigbench, `num_fewshot: null`, `generation_kwargs: null`), so the field gets its default. Fields with
 * another default (`description: ""`, `target_delimiter: " "`, `repeats: 1`, …) keep rejecting null.
 * `dataset_name: null` is kept as written (it means "the only config" to the Hub loader).
 */
const NULL_MEANS_UNSET = new Set([
  'task_alias',
  'tag',
  'custom_dataset',
  'dataset_path',
  'dataset_kwargs',
  'process_docs',
  'doc_to_text',
  'doc_to_target',
  'doc_to_image',
  'doc_to_audio',
  'doc_to_choice',
  'process_results',
  'use_prompt',
  'fewshot_config',
  'num_fewshot',
  'metric_list',
  'generation_kwargs',
  'filter_list',
  'doc_to_decontamination_query',
  'gen_prefix',
  'metadata',
]);

/** GroupConfig fields whose lm-eval default is None. */
const GROUP_NULL_MEANS_UNSET = new Set(['group_alias', 'aggregate_metric_list', 'metadata']);

function dropUnset(config: Record<string, unknown>, fields: ReadonlySet<string>): void {
  for (const key of Object.keys(config)) if (config[key] === null && fields.has(key)) delete config[key];
}

/** Keys that structure the index rather than configure a task; dropped before validation as lm-eval does. */
const STRUCTURAL_KEYS = ['group', 'task_list', 'group_alias'];

export const GROUP_FIELDS = ['group', 'group_alias', 'task', 'aggregate_metric_list', 'metadata'] as const;

const FEWSHOT_FIELDS = [
  'sampler',
  'split',
  'samples',
  'process_docs',
  'fewshot_indices',
  'doc_to_text',
  'doc_to_target',
  'doc_to_choice',
  'target_delimiter',
  'fewshot_delimiter',
  'gen_prefix',
];

/** Finds where a config path was written; injected so schema checks stay independent of files. */
export type Locate = (path: readonly (string | number)[]) => Promise<ErrorLocation>;

const functionRef = z.custom<{
  kind: 'function';
  ref: string;
  file: string;
  fn: (...args: never[]) => unknown;
}>(
  (value) =>
    value !== null &&
    typeof value === 'object' &&
    (value as { kind?: unknown }).kind === 'function' &&
    typeof (value as { fn?: unknown }).fn === 'function',
  { message: 'expected a !function reference' },
);

const templateField = z.union([z.string(), z.number(), functionRef]);
const choiceField = z.union([
  z.string(),
  z.array(z.union([z.string(), z.number()]).transform(String)),
  z.record(z.string(), z.string()),
  functionRef,
]);
const dataFiles = z.union([
  z.string(),
  z.array(z.string()),
  z.record(z.string(), z.union([z.string(), z.array(z.string())])),
]);

const fewshotConfig = z.strictObject({
  sampler: z.enum(['default', 'first_n']).optional(),
  split: z.string().optional(),
  samples: z.union([z.array(z.record(z.string(), z.unknown())), functionRef]).optional(),
  process_docs: functionRef.optional(),
  fewshot_indices: z.array(z.number().int().nonnegative()).optional(),
  doc_to_text: templateField.optional(),
  doc_to_target: templateField.optional(),
  doc_to_choice: choiceField.optional(),
  target_delimiter: z.string().optional(),
  fewshot_delimiter: z.string().optional(),
  gen_prefix: z.string().optional(),
});

const metricEntry = z.looseObject({
  metric: z.union([z.string(), functionRef]),
  aggregation: z.union([z.string(), functionRef]).optional(),
  higher_is_better: z.boolean().optional(),
});

const filterEntry = z.strictObject({
  name: z.string(),
  // A registered filter name, or a filter class (`function: !function utils.MultiChoiceRegexFilter`).
  filter: z.array(z.looseObject({ function: z.union([z.string(), functionRef]) })).min(1),
});

const optionalSplit = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

const taskSchema = z.object({
  task: z.string().min(1),
  task_alias: z.string().optional(),
  tag: z.union([z.string(), z.array(z.string())]).optional(),
  dataset_path: z.string().optional(),
  dataset_name: z.string().nullable().optional(),
  dataset_kwargs: z.looseObject({ data_files: dataFiles.optional() }).optional(),
  revision: z.string().optional(),
  // lm-eval YAMLs write `test_split: null` for "no such split" (hellaswag, piqa, truthfulqa).
  training_split: optionalSplit,
  validation_split: optionalSplit,
  test_split: optionalSplit,
  fewshot_split: optionalSplit,
  process_docs: functionRef.optional(),
  doc_to_text: templateField.optional(),
  doc_to_target: z.union([templateField, z.array(z.string())]).optional(),
  doc_to_choice: choiceField.optional(),
  gen_prefix: z.string().optional(),
  description: z.string().optional(),
  target_delimiter: z.string().default(' '),
  fewshot_delimiter: z.string().default('\n\n'),
  fewshot_config: fewshotConfig.optional(),
  num_fewshot: z.number().int().nonnegative().optional(),
  output_type: z.enum(OUTPUT_TYPES as [string, ...string[]]).default('generate_until'),
  generation_kwargs: z.record(z.string(), z.unknown()).optional(),
  repeats: z.number().int().positive().default(1),
  metric_list: z.array(metricEntry).optional(),
  filter_list: z.array(filterEntry).optional(),
  process_results: functionRef.optional(),
  should_decontaminate: z.boolean().optional(),
  doc_to_decontamination_query: z.union([z.string(), functionRef]).optional(),
  unsafe_code: z.boolean().optional(),
  metadata: z.looseObject({ version: z.union([z.number(), z.string()]).optional() }).optional(),
  cluster_by: z.string().optional(),
});

/** Checks field names first, so a typo gets "did you mean" instead of a type error. */
async function checkFields(
  config: Record<string, unknown>,
  known: readonly string[],
  prefix: (string | number)[],
  locate: Locate,
  what: string,
): Promise<void> {
  for (const key of Object.keys(config)) {
    if (known.includes(key)) continue;
    const keyPath = [...prefix, key];
    if (prefix.length === 0 && key in UNSUPPORTED_FIELDS) {
      throw new AssayError('invalid_config', UNSUPPORTED_FIELDS[key], {
        location: { ...(await locate(keyPath)), field: key },
      });
    }
    const suggestions = closestNames(key, known, 1);
    const hint = suggestions.length ? `; did you mean "${suggestions[0]}"?` : '';
    throw new AssayError('unknown_field', `unknown field "${[...prefix, key].join('.')}" in ${what}${hint}`, {
      location: { ...(await locate(keyPath)), field: key },
    });
  }
}

async function zodError(
  error: z.ZodError,
  locate: Locate,
  what: string,
  input: Record<string, unknown> = {},
): Promise<AssayError> {
  const issue = error.issues[0];
  const issuePath = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
  const field = issuePath.join('.');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    const known = issuePath[0] === 'fewshot_config' ? FEWSHOT_FIELDS : [];
    const suggestions = closestNames(key, known, 1);
    const hint = suggestions.length ? `; did you mean "${suggestions[0]}"?` : '';
    return new AssayError(
      'unknown_field',
      `unknown field "${[...issuePath, key].join('.')}" in ${what}${hint}`,
      {
        location: { ...(await locate([...issuePath, key])), field: key },
      },
    );
  }
  if (issuePath.length === 1 && issuePath[0] === 'output_type') {
    return new AssayError(
      'unknown_output_type',
      `unknown output_type ${JSON.stringify(input.output_type)}; valid output types: ${OUTPUT_TYPES.join(', ')}`,
      { location: { ...(await locate(issuePath)), field: 'output_type' } },
    );
  }
  return new AssayError('invalid_config', `invalid ${field || what}: ${issue.message}`, {
    location: { ...(await locate(issuePath)), field: field || undefined },
    cause: error,
  });
}

/**
 * Validates a task config (functions already resolved to FunctionRefs) and applies lm-eval's defaults,
 * including the generate_until generation_kwargs defaults.
 */
export async function parseTaskConfig(raw: Record<string, unknown>, locate: Locate): Promise<TaskConfig> {
  const config = { ...raw };
  for (const key of STRUCTURAL_KEYS) delete config[key];
  dropUnset(config, NULL_MEANS_UNSET);
  await checkFields(config, TASK_FIELDS, [], locate, 'task config');
  if (
    config.fewshot_config &&
    typeof config.fewshot_config === 'object' &&
    !Array.isArray(config.fewshot_config)
  ) {
    await checkFields(
      config.fewshot_config as Record<string, unknown>,
      FEWSHOT_FIELDS,
      ['fewshot_config'],
      locate,
      'fewshot_config',
    );
  }
  const parsed = taskSchema.safeParse(config);
  if (!parsed.success) throw await zodError(parsed.error, locate, 'task config', config);
  const task = parsed.data as TaskConfig;
  if (task.output_type === 'generate_until') {
    task.generation_kwargs = applyGenerationDefaults(task.generation_kwargs, task.fewshot_delimiter);
  }
  return task;
}

/**
 * lm-eval's TaskConfig.__post_init__ for generate_until: absent kwargs get the defaults (temperature 0,
 * greedy, 256 tokens, stop at the few-shot delimiter); given kwargs only gain `until`. Everything else
 * (max-token aliases, do_sample vs temperature) is left as written: the evaluator normalises after
 * merging `--gen_kwargs`, and lm-eval's priority between aliases depends on what the YAML wrote.
 */
export function applyGenerationDefaults(
  given: Record<string, unknown> | undefined,
  fewshotDelimiter: string,
): Record<string, unknown> {
  if (given === undefined) {
    return { temperature: 0.0, do_sample: false, max_gen_toks: 256, until: [fewshotDelimiter] };
  }
  return given.until === undefined ? { ...given, until: [fewshotDelimiter] } : { ...given };
}

const aggregateEntry = z.strictObject({
  // `metric: !function bleu.smoothed_bleu_4` (code2text): the children report that metric under the
  // function's name, so the group aggregates that name. (lm-eval builds the key from the function
  // object's repr, matches no child metric and reports nothing for the group.)
  metric: z.union([z.string(), functionRef.transform((fn) => fn.ref.slice(fn.ref.lastIndexOf('.') + 1))]),
  // lm-eval also takes a callable, `aggregation: !function utils.fn`, called as fn(values, sizes, weight_by_size).
  aggregation: z.union([z.string(), functionRef]).default('mean'),
  // lm-eval's dataclass does not check the type: any value is used for its truth (score's
  // `weight_by_size: truez` is true there). Kept as written here; parseGroupConfig converts it.
  weight_by_size: z.unknown().default(true),
  filter_list: z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (typeof value === 'string' ? [value] : value))
    .optional(),
});

const groupSchema = z.object({
  group: z.string().min(1),
  group_alias: z.string().optional(),
  task: z
    .union([z.string(), z.array(z.union([z.string(), z.record(z.string(), z.unknown())]))])
    .transform((value) => (typeof value === 'string' ? [value] : value)),
  aggregate_metric_list: z
    .preprocess((value) => (Array.isArray(value) ? value : [value]), z.array(aggregateEntry))
    .optional(),
  metadata: z.looseObject({ version: z.union([z.number(), z.string()]).optional() }).optional(),
});

/** Python's truth of a YAML value: empty strings, lists, mappings, 0 and None are false. */
function pythonTruth(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/**
 * Splits a group config into the group's own fields and the rest, which lm-eval applies as task
 * overrides to every child.
 */
export async function parseGroupConfig(
  raw: Record<string, unknown>,
  locate: Locate,
  warn?: (message: string) => void,
): Promise<{ group: GroupConfig; overrides: Record<string, unknown> }> {
  const own: Record<string, unknown> = {};
  const overrides: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === null && GROUP_NULL_MEANS_UNSET.has(key)) continue;
    if ((GROUP_FIELDS as readonly string[]).includes(key)) own[key] = value;
    // A group's tags place the group in the index; they must not become tags of its children.
    else if (key !== 'tag') overrides[key] = value;
  }
  const parsed = groupSchema.safeParse(own);
  if (!parsed.success) throw await zodError(parsed.error, locate, 'group config');
  const group = parsed.data;
  for (const [index, entry] of (group.aggregate_metric_list ?? []).entries()) {
    if (typeof entry.weight_by_size !== 'boolean') {
      const truth = pythonTruth(entry.weight_by_size);
      const where = await locate(['aggregate_metric_list', index, 'weight_by_size']);
      warn?.(
        `${where.file}:${where.line}: group ${group.group}: weight_by_size ${JSON.stringify(entry.weight_by_size)} is not true or false; taken as ${truth}, as lm-eval takes it`,
      );
      entry.weight_by_size = truth;
    }
    if (typeof entry.aggregation === 'string' && entry.aggregation !== 'mean') {
      throw new AssayError(
        'unknown_aggregation',
        `group aggregation "${entry.aggregation}" is not supported; valid: mean (as in lm-eval)`,
        { location: await locate(['aggregate_metric_list', index, 'aggregation']) },
      );
    }
  }
  return {
    group: {
      ...group,
      aggregate_metric_list: group.aggregate_metric_list as AggregateMetricConfig[] | undefined,
    },
    overrides,
  };
}

/**
 * Checks metric, aggregation and filter names (and filter arguments) against the registries in
 * src/metrics, so a typo fails when the task loads, located at its line, not mid-run.
 */
export async function validateNames(config: TaskConfig, locate: Locate): Promise<void> {
  const attempt = async (check: () => unknown, keyPath: (string | number)[]): Promise<void> => {
    try {
      check();
    } catch (error) {
      if (error instanceof AssayError && error.location.file === undefined) {
        throw new AssayError(error.code, error.message, {
          location: { ...error.location, ...(await locate(keyPath)), task: config.task },
          cause: error,
        });
      }
      throw error;
    }
  };
  for (const [index, entry] of (config.metric_list ?? []).entries()) {
    const { metric, aggregation } = entry;
    // A process_results task computes its own metrics, so their names need not be registered.
    if (typeof metric === 'string' && !config.process_results) {
      await attempt(() => {
        try {
          return getMetric(metric);
        } catch (error) {
          // lm-eval loads a name it does not register from Hugging Face `evaluate` (always so with
          // `hf_evaluate: true`): a Python library, so say so rather than only "unknown".
          if (!(error instanceof AssayError) || error.code !== 'unknown_metric') throw error;
          const why =
            entry.hf_evaluate === true
              ? `metric "${metric}" is a Hugging Face evaluate metric (hf_evaluate: true), which needs Python`
              : `unknown metric "${metric}" (lm-eval would try Hugging Face evaluate.load("${metric}"), which needs Python)`;
          throw new AssayError(
            'unknown_metric',
            error.message.replace(/^unknown metric "[^"]*"/, () => why),
            {
              location: error.location,
            },
          );
        }
      }, ['metric_list', index, 'metric']);
    }
    if (typeof aggregation === 'string') {
      await attempt(() => getAggregation(aggregation), ['metric_list', index, 'aggregation']);
    }
    if (metric === 'llm_judge') {
      const parsed = parseJudgeConfig(entry.judge);
      if ('issue' in parsed) {
        const keyPath = ['metric_list', index, 'judge', ...parsed.issue.path];
        throw new AssayError(
          'invalid_config',
          `task ${config.task}: ${keyPath.join('.')}: ${parsed.issue.message}`,
          { location: { ...(await locate(keyPath)), task: config.task, field: keyPath.join('.') } },
        );
      }
      if (config.output_type !== 'generate_until') {
        throw new AssayError(
          'invalid_config',
          `task ${config.task}: llm_judge scores generations; output_type is ${config.output_type}`,
          { location: { ...(await locate(['metric_list', index, 'metric'])), task: config.task } },
        );
      }
    }
  }
  for (const [index, entry] of (config.filter_list ?? []).entries()) {
    await attempt(() => buildFilterPipeline(entry), ['filter_list', index]);
  }
}
