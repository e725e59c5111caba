/**
 * Turns a merged task YAML (plus any group overrides) into a LoadedTask: functions imported, config
 * validated with defaults, names checked against the metric and filter registries.
 */
import { resolveFunctions } from './function-ref.js';
import { type Locate, parseTaskConfig, validateNames } from './schema.js';
import { hashFiles } from './source-hash.js';
import type { LoadedTask } from './task.js';
import { taskDocs } from './task-docs.js';
import type { TaskConfig } from './types.js';
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

/** Replaces every `!function` in a config tree with its FunctionRef; `resolveFunctions` by default. */
export type FunctionResolver = <T>(value: T) => Promise<{ value: T; files: string[] }>;

export interface LoadYamlTaskOptions {
  /** How `!function` references resolve (validation swaps in one that records what needs Python). */
  functions?: FunctionResolver;
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
  const resolved = await (options.functions ?? resolveFunctions)(raw);
  const config = await parseTaskConfig(resolved.value, locate);
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
    dataSources: docs.dataSources,
  };
}
