/**
 * Resolves `--tasks` specs into loaded tasks and groups, with lm-eval's semantics (tasks/_factory.py):
 * names, fnmatch globs, task files and folders; groups with per-child overrides and inline subgroups;
 * tags as flat, unaggregated lists.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { AssayError, closestNames } from '../errors.js';
import { fnmatch, isGlob } from '../python/semantics/fnmatch.js';
import { loadModuleTask } from './define-task.js';
import { resolveFunctions } from './function-ref.js';
import { buildTaskIndex, type IndexEntry, type TaskIndex, type TaskLogger } from './index.js';
import { kindOf } from './root-scan.js';
import { GROUP_FIELDS, parseGroupConfig } from './schema.js';
import { type GroupNode, type LoadedTask, leafTasks, type TaskNode } from './task.js';
import { clearYamlCache, cloneYaml, loadYaml, locateKey, type YamlMapping } from './yaml-loader.js';
import { type LoadYamlTaskOptions, loadYamlTask, type TaskOverrides } from './yaml-task.js';

export interface ResolveOptions {
  includePath?: string[];
  logger?: TaskLogger;
  /** Overrides the package's built-in task folder; `false` leaves it out. */
  builtinDir?: string | false;
  /** Reuse an index built earlier (e.g. by `validate` after `ls`). */
  index?: TaskIndex;
  /** The interpreter for Python task code (`--python`): unknown metric names go to its HF `evaluate`, if any. */
  python?: string;
  /** How `!function` references resolve (default: TypeScript modules beside the YAML), extra checks. */
  load?: LoadYamlTaskOptions;
  /** Folder of cached index scans (see BuildIndexOptions.cacheDir); absent: every folder is scanned. */
  indexCacheDir?: string;
}

const TASK_FILE = /\.(ya?ml|jsonl|ts|mts|js|mjs)$/;

/** The JSONL loader (and the sandbox's request types it builds) loads only for a run that has a JSONL task. */
async function loadJsonl(file: string): Promise<LoadedTask> {
  const { loadJsonlTask } = await import('./jsonl-task.js');
  return loadJsonlTask(file);
}

/** `--tasks a,b c` → ['a', 'b', 'c']. */
export function splitTaskSpecs(specs: readonly string[]): string[] {
  return specs.flatMap((spec) => spec.split(/[,\s]+/)).filter((spec) => spec !== '');
}

/**
 * Each resolution reads the task files as they are now: the YAML parses memoized by an earlier one in
 * this process (a library caller evaluating twice, a file edited in between) are forgotten first, so an
 * edited file is never answered from its old parse. Within one resolution, and with an `index` the caller
 * has just built, the memo stands.
 */
export async function resolveTasks(specs: string[], options: ResolveOptions = {}): Promise<TaskNode[]> {
  if (!options.index) clearYamlCache();
  const items = splitTaskSpecs(specs);
  const builder = new TaskNodeBuilder(await indexForSpecs(items, options), options);
  const nodes: TaskNode[] = [];
  for (const item of items) nodes.push(...(await builder.resolveSpec(item)));
  checkDuplicates(nodes);
  return nodes;
}

/**
 * The index `--tasks` items are resolved against: the built-in tasks, `--include_path`, and folders
 * named as items (recursively). The folder of a task file named as an item is not scanned here: only
 * a group file needs its siblings, and the builder indexes them when it meets one.
 */
export async function indexForSpecs(items: readonly string[], options: ResolveOptions): Promise<TaskIndex> {
  if (options.index) return options.index;
  const folders = items.filter((item) => !TASK_FILE.test(item) && !isGlob(item) && isDirectory(item));
  return buildTaskIndex({
    includePath: options.includePath,
    builtinDir: options.builtinDir,
    logger: options.logger,
    extraRoots: folders.map((dir) => ({ dir })),
    cacheDir: options.indexCacheDir,
  });
}

function isDirectory(item: string): boolean {
  try {
    return statSync(item).isDirectory();
  } catch {
    return false;
  }
}

/** lm-eval refuses to run one task twice ("Duplicate task"): scores would be counted twice. */
function checkDuplicates(nodes: TaskNode[]): void {
  const seen = new Map<string, string>();
  for (const node of nodes) {
    for (const task of leafTasks(node)) {
      const via = node.kind === 'group' ? `${node.isTag ? 'tag' : 'group'} ${node.name}` : 'its name';
      const earlier = seen.get(task.name);
      if (earlier !== undefined) {
        throw new AssayError(
          'duplicate_task',
          `task ${task.name} is requested twice: via ${earlier} and via ${via}`,
          {
            location: { task: task.name },
          },
        );
      }
      seen.set(task.name, via);
    }
  }
}

/** Builds task nodes (tasks, groups with their children, tags) from index entries and task files. */
export class TaskNodeBuilder {
  private index: TaskIndex;
  private readonly scannedFolders = new Set<string>();
  /** Files beside a group file that could not be indexed, named when the group lists an unknown task. */
  private readonly unreadSiblings: TaskIndex['skipped'] = [];

  constructor(
    index: TaskIndex,
    private readonly options: Pick<ResolveOptions, 'load' | 'logger' | 'python'> = {},
  ) {
    this.index = index;
  }

  get entries(): ReadonlyMap<string, IndexEntry> {
    return this.index.entries;
  }

  async resolveSpec(item: string): Promise<TaskNode[]> {
    const matched = this.matchSpec(item);
    if ('file' in matched) return [await this.buildFile(matched.file)];
    return Promise.all(matched.entries.map((entry) => this.buildEntry(entry, undefined, [])));
  }

  /**
   * What one `--tasks` item names: an index entry, a task file, the entries a glob matches (sorted), or
   * the tasks under a folder. Nothing is loaded; an item that names nothing is an `unknown_task` error.
   */
  matchSpec(item: string): { entries: IndexEntry[] } | { file: string } {
    const entry = this.index.entries.get(item);
    if (entry) return { entries: [entry] };
    if (TASK_FILE.test(item)) {
      if (!existsSync(item)) {
        throw new AssayError('unknown_task', `task file ${item} not found`, {
          location: { file: path.resolve(item) },
        });
      }
      return { file: path.resolve(item) };
    }
    if (isGlob(item)) {
      const names = [...this.index.entries.keys()].filter((name) => fnmatch(name, item)).sort();
      if (names.length === 0) throw this.unknown(item, `no task, group or tag matches "${item}"`);
      return { entries: names.map((name) => this.index.entries.get(name) as IndexEntry) };
    }
    if (isDirectory(item)) {
      const folder = path.resolve(item);
      const inFolder = [...this.index.entries.values()]
        .filter((candidate) => candidate.kind === 'task' && candidate.path?.startsWith(folder + path.sep))
        .sort((a, b) => a.name.localeCompare(b.name));
      if (inFolder.length === 0) throw this.unknown(item, `no tasks found in folder ${item}`);
      return { entries: inFolder };
    }
    throw this.unknown(item);
  }

  /**
   * A name no entry has, which a file that failed to load defines: that file, and why it failed, say more
   * than "unknown task". Its error keeps the failure's code and location (the `include:` line, say).
   */
  private failedToLoad(name: string, lister?: string): AssayError | undefined {
    const skipped = [...this.index.skipped, ...this.unreadSiblings].find((item) => item.name === name);
    if (!skipped) return undefined;
    const { error, file } = skipped;
    const what = lister ? `group ${lister} lists task "${name}", which` : `task "${name}"`;
    return new AssayError(
      error.code,
      `${what} is defined in ${file}, which failed to load: ${error.message}`,
      {
        location: { ...error.location, file: error.location.file ?? file, task: name },
        cause: error,
      },
    );
  }

  private unknown(name: string, message?: string): AssayError {
    const failed = this.failedToLoad(name);
    if (failed) return failed;
    // Names defined by files that failed to load are suggested too, marked as such.
    const unloaded = new Map<string, string>();
    for (const { name: defined, file } of [...this.index.skipped, ...this.unreadSiblings])
      if (defined !== undefined && !this.index.entries.has(defined)) unloaded.set(defined, file);
    const suggestions = closestNames(name, [...this.index.entries.keys(), ...unloaded.keys()]).map(
      (candidate) =>
        unloaded.has(candidate)
          ? `${candidate} (in ${unloaded.get(candidate)}, which failed to load)`
          : candidate,
    );
    const hint = suggestions.length ? `; did you mean: ${suggestions.join(', ')}?` : '';
    return new AssayError('unknown_task', `${message ?? `unknown task "${name}"`}${hint}`, {
      location: { task: name },
    });
  }

  /** A task file named directly: it need not be in the index. */
  async buildFile(file: string): Promise<TaskNode> {
    if (file.endsWith('.jsonl')) return loadJsonl(file);
    if (!/\.ya?ml$/.test(file)) return loadModuleTask(file);
    const loaded = await loadYaml(file);
    const kind = kindOf(loaded.config);
    if (!kind) {
      throw new AssayError('invalid_config', `${path.basename(file)} defines neither "task" nor "group"`, {
        location: { file, line: 1, column: 1 },
      });
    }
    if (kind === 'group') {
      await this.indexSiblings(path.dirname(file));
      return this.buildGroup(String(loaded.config.group), loaded.config, file, undefined, []);
    }
    return this.loadYamlTask(loaded);
  }

  /**
   * A group file named on the command line may list its sibling tasks without --include_path: its
   * folder is indexed (not recursively) and overrides the index, as a later include path would. Files
   * there that fail to index are not reported: they matter only if the group names them, and then
   * the group's error says so.
   */
  private async indexSiblings(folder: string): Promise<void> {
    if (this.scannedFolders.has(folder)) return;
    this.scannedFolders.add(folder);
    const siblings = await buildTaskIndex({
      builtinDir: false,
      extraRoots: [{ dir: folder, recursive: false }],
    });
    const entries = new Map(this.index.entries);
    for (const [name, entry] of siblings.entries) entries.set(name, entry);
    this.index = { ...this.index, entries };
    this.unreadSiblings.push(...siblings.skipped);
  }

  private loadYamlTask(source: Parameters<typeof loadYamlTask>[0], overrides?: TaskOverrides) {
    return loadYamlTask(source, overrides, { ...this.options.load, python: this.options.python });
  }

  async buildEntry(
    entry: IndexEntry,
    overrides: TaskOverrides | undefined,
    stack: string[],
  ): Promise<TaskNode> {
    if (entry.kind === 'tag') {
      const children = await Promise.all(
        (entry.tasks ?? []).map((name) =>
          this.buildEntry(this.index.entries.get(name) as IndexEntry, overrides, stack),
        ),
      );
      return {
        kind: 'group',
        name: entry.name,
        config: { group: entry.name, task: entry.tasks ?? [] },
        isTag: true,
        children,
      } satisfies GroupNode;
    }
    const file = entry.path as string;
    if (entry.format === 'jsonl') return withOverrides(await loadJsonl(file), overrides, entry);
    if (entry.format === 'typescript')
      return withOverrides(await loadModuleTask(file, entry.name), overrides, entry);
    const loaded = await loadYaml(file);
    if (entry.kind === 'group') return this.buildGroup(entry.name, loaded.config, file, overrides, stack);
    return this.loadYamlTask(loaded, overrides);
  }

  /**
   * A group and its children. Group-level keys that are not group fields become overrides for every
   * child; caller overrides (from an enclosing group) win over them.
   */
  private async buildGroup(
    name: string,
    raw: YamlMapping,
    file: string,
    callerOverrides: TaskOverrides | undefined,
    stack: string[],
  ): Promise<GroupNode> {
    if (stack.includes(name)) {
      throw new AssayError('include_cycle', `group cycle: ${[...stack, name].join(' → ')}`, {
        location: { file },
      });
    }
    const groupStack = [...stack, name];
    const inline = raw !== undefined && name.includes('::');
    const locate = (keyPath: readonly (string | number)[]) => locateKey(file, inline ? [] : keyPath);
    // A `!function` aggregation of the group's own (children resolve theirs when they load).
    const aggregates =
      raw?.aggregate_metric_list === undefined
        ? {}
        : {
            aggregate_metric_list: (
              await resolveFunctions(cloneYaml(raw.aggregate_metric_list), ['aggregate_metric_list'])
            ).value,
          };
    const { group, overrides } = await parseGroupConfig(
      { ...raw, ...aggregates, group: name },
      locate,
      (message) => this.options.logger?.warn(message),
    );
    const caller = Object.fromEntries(
      Object.entries(callerOverrides?.values ?? {}).filter(
        ([key]) => !(GROUP_FIELDS as readonly string[]).includes(key),
      ),
    );
    const merged: TaskOverrides = {
      values: { ...overrides, ...caller },
      file: callerOverrides?.file && Object.keys(caller).length ? callerOverrides.file : file,
    };
    // lm-eval keeps a group's children in a dict keyed by name: a member listed twice (mela lists
    // mela_ar twice) is one child, the later definition in the earlier one's place.
    const children: TaskNode[] = [];
    const positions = new Map<string, number>();
    for (const [position, item] of group.task.entries()) {
      for (const child of await this.buildMember(item, position, name, merged, file, groupStack)) {
        const earlier = positions.get(child.name);
        if (earlier === undefined) {
          positions.set(child.name, children.length);
          children.push(child);
        } else {
          children[earlier] = child;
        }
      }
    }
    return {
      kind: 'group',
      name,
      alias: group.group_alias,
      config: group,
      path: file,
      isTag: false,
      children,
    };
  }

  private async buildMember(
    item: unknown,
    position: number,
    groupName: string,
    overrides: TaskOverrides,
    file: string,
    stack: string[],
  ): Promise<TaskNode[]> {
    const hasOverrides = Object.keys(overrides.values).length > 0;
    const inherited = hasOverrides ? overrides : undefined;
    if (typeof item === 'string') {
      const entry = this.index.entries.get(item);
      if (!entry && ('dataset_path' in overrides.values || 'custom_dataset' in overrides.values)) {
        // lm-eval makes an unknown name an inline task from the group's own keys; with a dataset
        // among them, that is a task.
        const config: YamlMapping = { task_alias: item, ...overrides.values, task: `${groupName}::${item}` };
        return [await this.loadYamlTask({ path: file, config, files: [file] })];
      }
      if (!entry) {
        const failed = this.failedToLoad(item, groupName);
        if (failed) throw failed;
        const suggestions = closestNames(item, this.index.entries.keys());
        const hint = suggestions.length ? `; did you mean: ${suggestions.join(', ')}?` : '';
        const unread = this.unreadSiblings.length
          ? ` (files beside it that could not be read: ${this.unreadSiblings
              .slice(0, 3)
              .map(({ file, error }) => `${path.basename(file)}: ${error.message}`)
              .join('; ')})`
          : '';
        throw new AssayError(
          'unknown_task',
          `group ${groupName} lists unknown task "${item}"${hint}${unread}`,
          {
            location: { ...(await locateKey(file, ['task', position])), task: item },
          },
        );
      }
      return this.expand(entry, inherited, groupName, stack);
    }
    const member = item as YamlMapping;
    if (typeof member.group === 'string') {
      const { group: childName, ...childOverrides } = member;
      const registered = this.index.entries.get(childName);
      if (registered?.kind === 'group') {
        return [
          await this.buildEntry(
            registered,
            { values: { ...overrides.values, ...childOverrides }, file },
            stack,
          ),
        ];
      }
      // An inline subgroup, namespaced under its parent as lm-eval does.
      return [await this.buildGroup(`${groupName}::${childName}`, member, file, overrides, stack)];
    }
    if (typeof member.task !== 'string') {
      throw new AssayError(
        'invalid_config',
        `group ${groupName}: each dict in "task" needs a "task" or "group" name; entry ${position + 1} has neither (lm-eval rejects this group too)`,
        {
          location: await locateKey(file, ['task', position]),
        },
      );
    }
    const values = { ...overrides.values, ...member };
    const entry = this.index.entries.get(member.task);
    if (entry) return this.expand(entry, { values, file }, groupName, stack);
    if ('include' in member) {
      // lm-eval passes an inline task's keys to TaskConfig, which has no `include` (a TypeError).
      throw new AssayError(
        'invalid_config',
        `group ${groupName}: the inline task ${member.task} uses "include", which works only at the top of a YAML file (lm-eval fails on it too: TaskConfig has no field include); move the task to its own file and list its name`,
        { location: { ...(await locateKey(file, ['task', position, 'include'])), task: member.task } },
      );
    }
    // A task defined inline in the group (or not in the index): `group::task`, aliased to its own name.
    const namespaced = `${groupName}::${member.task}`;
    const config: YamlMapping = { task_alias: member.task, ...values, task: namespaced };
    return [await this.loadYamlTask({ path: file, config, files: [file] })];
  }

  /** A child that names an index entry; a tag expands in place to its tasks, sorted by name. */
  private async expand(
    entry: IndexEntry,
    overrides: TaskOverrides | undefined,
    groupName: string,
    stack: string[],
  ): Promise<TaskNode[]> {
    if (entry.kind === 'tag') {
      return Promise.all(
        (entry.tasks ?? []).map((name) =>
          this.buildEntry(this.index.entries.get(name) as IndexEntry, overrides, stack),
        ),
      );
    }
    if (entry.kind === 'group' && stack.includes(entry.name)) {
      throw new AssayError('include_cycle', `group cycle: ${[...stack, entry.name].join(' → ')}`, {
        location: { file: entry.path, task: groupName },
      });
    }
    return [await this.buildEntry(entry, overrides, stack)];
  }
}

/**
 * JSONL and TypeScript tasks have no YAML to merge overrides into, so a group may only set fields that
 * their configs carry (num_fewshot, generation_kwargs, …); the override is applied to the config.
 */
function withOverrides(
  task: LoadedTask,
  overrides: TaskOverrides | undefined,
  entry: IndexEntry,
): LoadedTask {
  if (!overrides) return task;
  const values = Object.fromEntries(Object.entries(overrides.values).filter(([key]) => key !== 'task'));
  if (Object.keys(values).length === 0) return task;
  const unsupported = Object.keys(values).filter(
    (key) => !['num_fewshot', 'generation_kwargs', 'metadata', 'task_alias', 'repeats'].includes(key),
  );
  if (unsupported.length) {
    throw new AssayError(
      'invalid_config',
      `group overrides ${unsupported.join(', ')} cannot apply to ${entry.format} task ${entry.name}; only num_fewshot, generation_kwargs, repeats, task_alias and metadata can`,
      { location: { file: overrides.file, task: entry.name } },
    );
  }
  return { ...task, config: { ...task.config, ...values } };
}
