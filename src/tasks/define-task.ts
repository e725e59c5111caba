/**
 * TypeScript tasks: `export default defineTask({...})` in a `<name>.task.ts` file. The task supplies its
 * own prompt functions and scoring (processResults, aggregation, higherIsBetter), so it becomes a
 * LoadedTask with `custom` scoring. Its functions are recorded as FunctionRefs (`file#docToText`) so
 * configs serialize like YAML tasks with `!function`.
 */

import { createHash } from 'node:crypto';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { parseJudgeConfig } from '../metrics/llm-judge-config.js';
import type { Doc } from '../task-config/doc.js';
import type { FunctionRef } from '../task-config/function-ref.js';
import { OUTPUT_TYPES, type OutputType } from '../task-config/output-type.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { importModule } from './function-ref.js';
import { applyGenerationDefaults } from './schema.js';
import { hashFiles } from './source-hash.js';
import type { LoadedTask } from './task.js';
import { taskDocs } from './task-docs.js';

export type DocsSource<D> = D[] | (() => D[] | Promise<D[]>);

export interface DefineTaskOptions<D extends Doc = Doc> {
  name: string;
  alias?: string;
  /** Inline docs (or a function returning them); otherwise give dataset_path and splits as in YAML. */
  docs?: DocsSource<D>;
  /** Few-shot pool for inline docs. */
  fewshotDocs?: DocsSource<D>;
  dataset_path?: string;
  dataset_name?: string;
  dataset_kwargs?: TaskConfig['dataset_kwargs'];
  training_split?: string;
  validation_split?: string;
  test_split?: string;
  fewshot_split?: string;
  processDocs?: (docs: D[]) => D[] | Promise<D[]>;
  /** Default generate_until, as in lm-eval. */
  outputType?: OutputType;
  docToText: (doc: D) => string;
  docToTarget: (doc: D) => unknown;
  docToChoice?: (doc: D) => string[];
  description?: string;
  targetDelimiter?: string;
  fewshotDelimiter?: string;
  numFewshot?: number;
  generationKwargs?: Record<string, unknown>;
  filterList?: TaskConfig['filter_list'];
  repeats?: number;
  version?: number | string;
  /** Metric values for one doc from its (filtered) responses. */
  processResults: (doc: D, results: unknown[]) => Record<string, unknown>;
  /** Metric name → aggregation over the per-doc values. */
  aggregation: Record<string, (items: unknown[]) => number>;
  higherIsBetter: Record<string, boolean>;
  /**
   * Metrics another model scores (docs/judge.md): metric name → a judge block as YAML's `llm_judge` takes
   * it. Each names a metric of `aggregation`; the judge scores the first response against docToTarget.
   */
  judges?: Record<string, Record<string, unknown>>;
}

/** Marks a LoadedTask made by defineTask, so a loader can rebind it to the file that exports it. */
const DEFINITION = Symbol.for('assay.defineTask');

type DefinedTask = LoadedTask & { [DEFINITION]: DefineTaskOptions<Doc> };

function fail(message: string, file?: string): never {
  throw new AssayError('invalid_config', message, { location: { file } });
}

function check(options: DefineTaskOptions<Doc>, file?: string): void {
  const where = `defineTask(${JSON.stringify(options.name)})`;
  if (typeof options.name !== 'string' || options.name === '')
    fail('defineTask needs a non-empty name', file);
  if (options.outputType !== undefined && !OUTPUT_TYPES.includes(options.outputType)) {
    throw new AssayError(
      'unknown_output_type',
      `${where}: unknown outputType "${options.outputType}"; valid output types: ${OUTPUT_TYPES.join(', ')}`,
      { location: { file } },
    );
  }
  for (const key of ['docToText', 'docToTarget', 'processResults'] as const) {
    if (typeof options[key] !== 'function') fail(`${where}: ${key} must be a function`, file);
  }
  if (options.docs === undefined && options.dataset_path === undefined) {
    fail(`${where}: give docs, or dataset_path with a test_split or validation_split`, file);
  }
  const metrics = Object.keys(options.aggregation ?? {});
  if (metrics.length === 0) fail(`${where}: aggregation must name at least one metric`, file);
  for (const metric of metrics) {
    if (typeof options.aggregation[metric] !== 'function')
      fail(`${where}: aggregation.${metric} must be a function`, file);
    if (typeof options.higherIsBetter?.[metric] !== 'boolean') {
      fail(`${where}: higherIsBetter.${metric} must be true or false`, file);
    }
  }
  checkJudges(options, where, file);
}

function checkJudges(options: DefineTaskOptions<Doc>, where: string, file?: string): void {
  for (const [metric, block] of Object.entries(options.judges ?? {})) {
    if (!Object.hasOwn(options.aggregation ?? {}, metric)) {
      fail(`${where}: judges.${metric} names no metric of aggregation`, file);
    }
    const parsed = parseJudgeConfig(block);
    if ('issue' in parsed)
      fail(`${where}: judges.${metric}.${parsed.issue.path.join('.')}: ${parsed.issue.message}`, file);
  }
  if (options.judges && (options.outputType ?? 'generate_until') !== 'generate_until') {
    fail(`${where}: judges score generations; outputType is ${options.outputType}`, file);
  }
}

function ref<F>(file: string | undefined, name: string, fn: F): FunctionRef<F> {
  return {
    kind: 'function',
    ref: `${file ? path.basename(file) : '<inline>'}#${name}`,
    file: file ?? '',
    fn,
  };
}

function docsLoader<D extends Doc>(source: DocsSource<D>, process?: (docs: D[]) => D[] | Promise<D[]>) {
  let promise: Promise<Doc[]> | undefined;
  return () => {
    promise ??= (async () => {
      const docs = [...(typeof source === 'function' ? await source() : source)];
      return process ? await process(docs) : docs;
    })();
    return promise;
  };
}

function build(options: DefineTaskOptions<Doc>, file: string | undefined, sha256: string): DefinedTask {
  const config: TaskConfig = {
    task: options.name,
    ...(options.alias !== undefined ? { task_alias: options.alias } : {}),
    ...(options.dataset_path !== undefined ? { dataset_path: options.dataset_path } : {}),
    ...(options.dataset_name !== undefined ? { dataset_name: options.dataset_name } : {}),
    ...(options.dataset_kwargs !== undefined ? { dataset_kwargs: options.dataset_kwargs } : {}),
    ...(options.training_split !== undefined ? { training_split: options.training_split } : {}),
    ...(options.validation_split !== undefined ? { validation_split: options.validation_split } : {}),
    ...(options.test_split !== undefined ? { test_split: options.test_split } : {}),
    ...(options.fewshot_split !== undefined ? { fewshot_split: options.fewshot_split } : {}),
    ...(options.processDocs ? { process_docs: ref(file, 'processDocs', options.processDocs as never) } : {}),
    doc_to_text: ref(file, 'docToText', options.docToText),
    doc_to_target: ref(file, 'docToTarget', options.docToTarget),
    ...(options.docToChoice ? { doc_to_choice: ref(file, 'docToChoice', options.docToChoice) } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    target_delimiter: options.targetDelimiter ?? ' ',
    fewshot_delimiter: options.fewshotDelimiter ?? '\n\n',
    ...(options.numFewshot !== undefined ? { num_fewshot: options.numFewshot } : {}),
    output_type: options.outputType ?? 'generate_until',
    repeats: options.repeats ?? 1,
    ...(options.filterList ? { filter_list: options.filterList } : {}),
    process_results: ref(file, 'processResults', options.processResults),
    ...(options.version !== undefined ? { metadata: { version: options.version } } : {}),
  };
  if (config.output_type === 'generate_until') {
    config.generation_kwargs = applyGenerationDefaults(options.generationKwargs, config.fewshot_delimiter);
  } else if (options.generationKwargs) {
    config.generation_kwargs = options.generationKwargs;
  }
  const fromDataset =
    options.docs === undefined ? taskDocs(config, file ?? path.join(process.cwd(), '<inline>')) : undefined;
  const task: DefinedTask = {
    kind: 'task',
    name: options.name,
    config,
    source: { format: 'typescript', path: file ?? '', sha256 },
    version: options.version ?? null,
    evalSplit: fromDataset?.evalSplit,
    fewshotSplit: fromDataset?.fewshotSplit,
    evalDocs: fromDataset?.evalDocs ?? docsLoader(options.docs as DocsSource<Doc>, options.processDocs),
    fewshotDocs: fromDataset?.fewshotDocs ?? docsLoader(options.fewshotDocs ?? [], options.processDocs),
    ...(fromDataset ? { dataSources: fromDataset.dataSources, dataFiles: fromDataset.dataFiles } : {}),
    custom: {
      processResults: options.processResults,
      aggregation: options.aggregation,
      higherIsBetter: options.higherIsBetter,
      ...(options.judges ? { judges: options.judges } : {}),
    },
    [DEFINITION]: options,
  };
  return task;
}

/**
 * Defines a TypeScript task. Used directly (e.g. with simpleEvaluate) the task has no file: its hash
 * covers its functions' source text. Loaded from a `*.task.ts` file, it is rebound to that file.
 */
export function defineTask<D extends Doc = Doc>(options: DefineTaskOptions<D>): LoadedTask {
  const untyped = options as unknown as DefineTaskOptions<Doc>;
  check(untyped);
  const hash = createHash('sha256');
  for (const [key, value] of Object.entries(untyped)) {
    hash.update(
      `${key}\0${typeof value === 'function' ? value.toString() : JSON.stringify(value, fnToString)}\0`,
    );
  }
  return build(untyped, undefined, hash.digest('hex'));
}

function fnToString(_key: string, value: unknown): unknown {
  return typeof value === 'function' ? value.toString() : value;
}

/** Loads a `*.task.ts` (or .js/.mjs) module whose default export is `defineTask(...)`. */
export async function loadModuleTask(file: string, expectedName?: string): Promise<LoadedTask> {
  const absolute = path.resolve(file);
  let imported: Awaited<ReturnType<typeof importModule>>;
  try {
    imported = await importModule(absolute);
  } catch (error) {
    throw new AssayError('invalid_config', `cannot import task module ${absolute}: ${String(error)}`, {
      location: { file: absolute },
      cause: error,
    });
  }
  // Outside a `"type": "module"` package tsx loads a .ts file as CommonJS, which nests the default
  // export one level deeper.
  const outer = imported.exports.default as
    | (Partial<DefinedTask> & { default?: Partial<DefinedTask> })
    | undefined;
  const options = outer?.[DEFINITION] ?? outer?.default?.[DEFINITION];
  if (!options) {
    throw new AssayError(
      'invalid_config',
      `${path.basename(absolute)} must \`export default defineTask({...})\``,
      {
        location: { file: absolute },
      },
    );
  }
  check(options, absolute);
  if (expectedName !== undefined && options.name !== expectedName) {
    throw new AssayError(
      'invalid_config',
      `${path.basename(absolute)} defines task "${options.name}", but its file name makes it "${expectedName}"; rename one`,
      { location: { file: absolute } },
    );
  }
  return build(options, absolute, await hashFiles(imported.files));
}
