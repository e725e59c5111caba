/**
 * The suite file (YAML): which models run which task sets with which settings, and the scenario groups the
 * summary reports. Its zod schema is the one place each key is named, typed and checked; keys are
 * snake_case as lm-eval's flags. `readSuiteFile` (read-suite.ts) gives errors their file and line.
 *
 *   version: 2026-12-a            # the suite's own version, recorded in every summary
 *   settings: { limit: 200, seeds: { random: 0 }, gen_kwargs: { temperature: 0 } }
 *   models:
 *     - { name: small, model: gguf, model_args: { model: small.gguf } }
 *     - { name: api, model: local-completions, model_args: { base_url: http://…, model: m } }
 *   tasks:
 *     - { name: arithmetic, task: arithmetic_1dc, num_fewshot: 0 }
 *     - { name: mmlu, tasks: [mmlu_stem, mmlu_humanities], limit: 50 }
 *   groups: { reasoning: [arithmetic], knowledge: [mmlu] }
 */
import { z } from 'zod';

/** A folder name: models and task sets name folders under suites/NAME/. */
const FOLDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const folderName = (what: string) =>
  z
    .string()
    .regex(
      FOLDER_NAME,
      `${what} must be a folder name: letters, digits and _ . -, starting with a letter or digit`,
    );

const mapping = z.record(z.string(), z.unknown());
const nonNegativeInteger = z.number().int().min(0);
const positiveInteger = z.number().int().min(1);

/** lm-eval's --limit: a count of at least 1, or a fraction of each task below 1. */
const limit = z
  .number()
  .positive()
  .refine(
    (value) => value < 1 || Number.isInteger(value),
    'a count of docs is a whole number (or a fraction below 1)',
  );

const seeds = z.strictObject({
  random: z.number().int().nullable().optional(),
  numpy: z.number().int().nullable().optional(),
  torch: z.number().int().nullable().optional(),
  fewshot: z.number().int().nullable().optional(),
});

/** Settings a model may set for itself (they win over the suite's). */
const modelSettings = {
  apply_chat_template: z.union([z.boolean(), z.string()]).optional(),
  system_instruction: z.string().optional(),
  fewshot_as_multiturn: z.boolean().optional(),
  gen_kwargs: mapping.optional(),
  max_latency_s: z.number().positive().optional(),
  device: z.string().optional(),
  max_batch_size: positiveInteger.optional(),
  trust_remote_code: z.boolean().optional(),
};

/** Settings a task set may set for itself (they win over the suite's). */
const taskSettings = {
  num_fewshot: nonNegativeInteger.optional(),
  limit: limit.optional(),
  /** HELM's name for a limit (`--max-eval-instances`). */
  max_eval_instances: positiveInteger.optional(),
  gen_kwargs: mapping.optional(),
};

export const suiteModelSchema = z.strictObject({
  /** The model's display name and folder (suites/NAME/<name>/). */
  name: folderName('a model name'),
  /** A backend name, as `assay run --model`. */
  model: z.string().min(1),
  /** The backend's model args, as a mapping (checked against the backend's own schema by validate). */
  model_args: mapping.optional(),
  ...modelSettings,
});

export const suiteTaskSetSchema = z
  .strictObject({
    /** The task set's folder (suites/NAME/<model>/<name>/); default: its one task. */
    name: folderName('a task set name').optional(),
    task: z.string().min(1).optional(),
    tasks: z.array(z.string().min(1)).min(1).optional(),
    /** lm-eval's --samples: task name → the doc ids to evaluate. */
    samples: z.record(z.string(), z.array(z.number().int().min(0))).optional(),
    metadata: mapping.optional(),
    /**
     * A large task set: on a sharded run (`RunSuiteOptions.shard`), each of its cells runs as this many doc slices (at
     * most the shard count), each on a shard of its own (shard-plan.ts). It changes where docs run, not
     * what they give, so it is not one of a cell's settings.
     */
    shard_slices: positiveInteger.optional(),
    ...taskSettings,
  })
  .superRefine((entry, context) => {
    if ((entry.task === undefined) === (entry.tasks === undefined))
      context.addIssue({ code: 'custom', message: 'give exactly one of task or tasks', path: [] });
    if (entry.name === undefined && entry.task !== undefined && !FOLDER_NAME.test(entry.task))
      context.addIssue({
        code: 'custom',
        message: `task "${entry.task}" is not a folder name: give the task set a name`,
        path: ['task'],
      });
    if (entry.name === undefined && entry.tasks !== undefined)
      context.addIssue({ code: 'custom', message: 'a task set of several tasks needs a name', path: [] });
  });

export const suiteSettingsSchema = z.strictObject({
  seeds: seeds.optional(),
  bootstrap_iters: nonNegativeInteger.optional(),
  /** Task folders, relative to the suite file. */
  include_path: z.array(z.string()).optional(),
  /** The Python interpreter for tasks with Python functions. */
  python: z.string().optional(),
  /** Keep every answer in a response cache per model, so a killed cell resumes (default true). */
  use_cache: z.boolean().optional(),
  confirm_run_unsafe_code: z.boolean().optional(),
  ...modelSettings,
  ...taskSettings,
});

export const suiteFileSchema = z
  .strictObject({
    /** The suite's own version (any label): recorded with each cell and in the summary. */
    version: z.union([z.string().min(1), z.number()]).transform(String),
    description: z.string().optional(),
    settings: suiteSettingsSchema.optional(),
    models: z.array(suiteModelSchema).min(1),
    tasks: z.array(suiteTaskSetSchema).min(1),
    /** Scenario group → the task sets (or leaf tasks) it summarizes. */
    groups: z.record(folderName('a group name'), z.array(z.string().min(1)).min(1)).optional(),
  })
  .superRefine((suite, context) => {
    const duplicate = (names: string[], what: string, key: string) => {
      const seen = new Set<string>();
      names.forEach((name, index) => {
        if (seen.has(name))
          context.addIssue({
            code: 'custom',
            message: `${what} "${name}" is given twice`,
            path: [key, index],
          });
        seen.add(name);
      });
    };
    duplicate(
      suite.models.map((model) => model.name),
      'model',
      'models',
    );
    duplicate(suite.tasks.map(taskSetName), 'task set', 'tasks');
    for (const [index, entry] of [suite.settings, ...suite.tasks].entries()) {
      if (entry?.limit !== undefined && entry.max_eval_instances !== undefined)
        context.addIssue({
          code: 'custom',
          message: 'limit and max_eval_instances are the same setting: give one',
          path: index === 0 ? ['settings'] : ['tasks', index - 1],
        });
    }
  });

export type SuiteFile = z.output<typeof suiteFileSchema>;
export type SuiteModel = SuiteFile['models'][number];
export type SuiteTaskSet = SuiteFile['tasks'][number];
export type SuiteSettings = NonNullable<SuiteFile['settings']>;

/** A task set's folder name: its `name`, else its one task. */
export function taskSetName(entry: Pick<SuiteTaskSet, 'name' | 'task' | 'tasks'>): string {
  return entry.name ?? entry.task ?? entry.tasks?.join('+') ?? '';
}

/** A task set's task specs. */
export function taskSpecs(entry: Pick<SuiteTaskSet, 'task' | 'tasks'>): string[] {
  return entry.tasks ?? (entry.task ? [entry.task] : []);
}
