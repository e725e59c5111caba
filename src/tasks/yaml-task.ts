/**
 * Turns a merged task YAML (plus any group overrides) into a LoadedTask: functions imported, config
 * validated with defaults, names checked against the metric and filter registries.
 */
import { AssayError } from '../errors.js';
import { FILTERS, getFilter } from '../metrics/filters/registry.js';
import { isMetricName } from '../metrics/registry.js';
import { hfEvaluateImportable } from '../python/interpreter.js';
import { collectPythonRefs, createHfMetricRef, createRegisteredFilterRef } from '../python/python-ref.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { resolveFunctions } from './function-ref.js';
import { type Locate, parseTaskConfig, validateNames } from './schema.js';
import { hashFiles } from './source-hash.js';
import type { LoadedTask } from './task.js';
import { taskDocs } from './task-docs.js';
import { cloneYaml, locateKey, type YamlMapping } from './yaml-loader.js';

export interface YamlTaskSource {
  /** The task file (or, for a task defined inline in a group, the group file). */
  path: string;
  /** Merged config, `!function` unresolved. Not modified. */
  config: YamlMapping;
  /** The file and its includes. */
  files: readonly string[];
  /** For each top-level key, the file that wrote it. */
  keyFiles?: ReadonlyMap<string, string>;
}

export interface TaskOverrides {
  values: YamlMapping;
  /** The group file that wrote the overrides, for error locations and the content hash. */
  file?: string;
}

/**
 * lm-eval looks a metric name it does not know up in Hugging Face `evaluate` (as it does every name
 * with `hf_evaluate: true`). Such entries become Python metric refs, bound when the run starts Python;
 * where `evaluate` (or Python) is missing they fail with the usual unknown-metric error.
 */
async function deferToHfEvaluate(
  config: TaskConfig,
  file: string,
  locate: Locate,
  python: string | undefined,
): Promise<void> {
  // Only generate_until scoring calls a metric function; other output types compute their metrics.
  if (config.process_results || config.output_type !== 'generate_until') return;
  for (const [index, entry] of (config.metric_list ?? []).entries()) {
    if (typeof entry.metric !== 'string') continue;
    const name = entry.metric;
    // Without `evaluate` in the interpreter nothing changes: an unknown name is reported at load by
    // validateNames, and a known one with `hf_evaluate: true` keeps assay's own implementation.
    const unknown = !isMetricName(name);
    if ((!unknown && entry.hf_evaluate !== true) || !hfEvaluateImportable(python)) continue;
    const unavailable = new AssayError(
      'unknown_metric',
      `metric ${name}: Hugging Face evaluate has no metric of that name`,
      { location: { ...(await locate(['metric_list', index, 'metric'])), task: config.task } },
    );
    entry.metric = createHfMetricRef(name, file, ['metric_list', index, 'metric'], unavailable);
  }
}

/**
 * A task module may register filters by name (`@register_filter("X")` in its utils.py), which lm-eval
 * then finds when the YAML says `function: X`. A name assay does not know, in a task that has Python
 * modules, is looked up in their registry when the run binds them; if it is not there either, the task
 * fails with the unknown-filter error, as before.
 */
function deferToRegisteredFilters(config: TaskConfig, file: string): void {
  const modules = [
    ...new Set(
      collectPythonRefs(config)
        .filter((ref) => !ref.hfEvaluate && !ref.registeredFilter)
        .map((ref) => ref.module),
    ),
  ];
  if (modules.length === 0) return;
  for (const [index, entry] of (config.filter_list ?? []).entries()) {
    for (const [position, step] of entry.filter.entries()) {
      if (typeof step.function !== 'string' || Object.hasOwn(FILTERS, step.function)) continue;
      let unknown: AssayError;
      try {
        getFilter(step.function);
        continue;
      } catch (error) {
        if (!(error instanceof AssayError)) throw error;
        unknown = new AssayError(error.code, error.message, {
          location: { file, task: config.task, field: 'filter_list' },
          cause: error,
        });
      }
      step.function = createRegisteredFilterRef(
        step.function,
        modules,
        file,
        ['filter_list', index, 'filter', position, 'function'],
        unknown,
      );
    }
  }
}

export interface LoadYamlTaskOptions {
  /** `--python`, for the Hugging Face `evaluate` fallback of unknown metric names. */
  python?: string;
  /** Extra checks on the validated config (validation compiles templates here), located like the rest. */
  check?: (config: TaskConfig, locate: Locate) => Promise<void>;
}

export async function loadYamlTask(
  source: YamlTaskSource,
  overrides?: TaskOverrides,
  options: LoadYamlTaskOptions = {},
): Promise<LoadedTask> {
  // Memoized parses are shared by every task that includes them; work on a private copy.
  const raw: YamlMapping = { ...cloneYaml(source.config), ...cloneYaml(overrides?.values ?? {}) };
  const overrideKeys = new Set(Object.keys(overrides?.values ?? {}));
  const locate: Locate = (keyPath) => {
    const key = String(keyPath[0] ?? '');
    const file =
      overrideKeys.has(key) && overrides?.file ? overrides.file : (source.keyFiles?.get(key) ?? source.path);
    return locateKey(file, keyPath);
  };
  const resolved = await resolveFunctions(raw);
  const config = await parseTaskConfig(resolved.value, locate);
  await deferToHfEvaluate(config, source.path, locate, options.python);
  deferToRegisteredFilters(config, source.path);
  await validateNames(config, locate);
  await options.check?.(config, locate);
  const hashed = [...source.files, ...(overrides?.file ? [overrides.file] : []), ...resolved.files];
  const docs = taskDocs(config, source.path);
  return {
    kind: 'task',
    name: config.task,
    config,
    source: { format: 'yaml', path: source.path, sha256: await hashFiles(hashed) },
    version: config.metadata?.version ?? null,
    evalSplit: docs.evalSplit,
    fewshotSplit: docs.fewshotSplit,
    evalDocs: docs.evalDocs,
    fewshotDocs: docs.fewshotDocs,
    prefetchEvalDocs: docs.prefetchEvalDocs,
    startEvalDocs: docs.startEvalDocs,
    dataSources: docs.dataSources,
    dataFiles: docs.dataFiles,
  };
}
