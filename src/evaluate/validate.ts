/**
 * `assay validate`: loads every requested task, group and tag and reports each one, rather than stopping
 * at the first error, so a CI job can lint a whole task tree. Without data it checks what a config alone
 * can show: YAML, includes, `!function` references, the syntax of every template, and metric, aggregation
 * and filter names. With data it also reads each task's evaluation split and builds doc 0's requests.
 *
 * A `!function` that points at a Python module (lm-eval's `utils.py`) cannot run in assay until the
 * Python bridge exists. Such references are resolved to placeholders so that the rest of the entry is
 * still checked: an entry whose only problem is Python is reported as `needs_python`, naming the modules,
 * and one with another problem reports that problem.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AssayError, type ErrorLocation } from '../errors.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { checkTaskTemplates } from '../prompts/check-templates.js';
import { resolveFunction } from '../tasks/function-ref.js';
import type { EntryKind, IndexEntry, TaskIndex, TaskLogger } from '../tasks/index.js';
import { indexForSpecs, splitTaskSpecs, TaskNodeBuilder } from '../tasks/manager.js';
import type { LoadedTask, TaskNode } from '../tasks/task.js';
import type { FunctionRef } from '../tasks/types.js';
import { DeferredFunction, locateFunctionTag } from '../tasks/yaml-loader.js';
import type { FunctionResolver } from '../tasks/yaml-task.js';
import { planTask } from './plan.js';

export interface ValidationRecord {
  name: string;
  kind: EntryKind;
  ok: boolean;
  /** The first failure, `file:line:col: reason`; absent when ok. */
  error?: string;
  /** The failure's error code; `needs_python` when Python `!function` modules are the only problem. */
  code?: string;
  /** Python modules the entry's `!function` references need, as written beside the YAML (`utils.py`). */
  python?: string[];
  /** The file that defines the entry (absent for tags). */
  file?: string;
  /** With data: docs in the evaluation split, the output type and the requests of doc 0. */
  docs?: number;
  outputType?: string;
  requests?: number;
}

export interface ValidationCounts {
  total: number;
  ok: number;
  /** Failed only because Python `!function` modules cannot run yet. */
  needsPython: number;
  failed: number;
}

export interface ValidationReport {
  records: ValidationRecord[];
  counts: Record<EntryKind, ValidationCounts>;
}

export interface ValidateOptions {
  /** `--tasks` items (names, globs, files, folders). Default: every entry of `includePath`, else every entry. */
  tasks?: readonly string[];
  includePath?: string[];
  builtinDir?: string | false;
  logger?: TaskLogger;
  index?: TaskIndex;
  indexCacheDir?: string;
  /** Read each task's data and build doc 0's requests (plain `assay validate`). */
  data: boolean;
  /** Called as each record is made, for progress. */
  onRecord?: (record: ValidationRecord) => void;
}

export async function validateTasks(options: ValidateOptions): Promise<ValidationReport> {
  const items = splitTaskSpecs(options.tasks ?? []);
  const index = await indexForSpecs(items, options);
  const validator = new Validator(index, options);
  const targets: Array<IndexEntry | { file: string }> = [];
  if (items.length === 0) {
    targets.push(...selectAll(index, options.includePath));
  } else {
    // Unknown names are bad arguments (exit 2), found before anything is loaded.
    const matcher = new TaskNodeBuilder(index);
    for (const item of items) {
      const matched = matcher.matchSpec(item);
      if ('file' in matched) targets.push(matched);
      else targets.push(...matched.entries);
    }
  }
  const records: ValidationRecord[] = items.length === 0 ? unreadable(index, options.includePath) : [];
  for (const record of records) options.onRecord?.(record);
  const seen = new Set<string>();
  for (const target of targets) {
    const record = 'file' in target ? await validator.file(target.file) : await validator.entry(target);
    const key = `${record.kind}:${record.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    records.push(record);
    options.onRecord?.(record);
  }
  return { records, counts: countRecords(records) };
}

/** Every task, group and tag defined under the include paths (tags: those with a member there). */
function selectAll(index: TaskIndex, includePath: readonly string[] | undefined): IndexEntry[] {
  const roots = (includePath ?? []).map((dir) => path.resolve(dir) + path.sep);
  const inRoots = (file: string | undefined) =>
    roots.length === 0 || (file !== undefined && roots.some((root) => file.startsWith(root)));
  const order: Record<EntryKind, number> = { task: 0, group: 1, tag: 2 };
  return [...index.entries.values()]
    .filter((entry) =>
      entry.kind === 'tag'
        ? (entry.tasks ?? []).some((name) => inRoots(index.entries.get(name)?.path))
        : inRoots(entry.path),
    )
    .sort((a, b) => order[a.kind] - order[b.kind] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Files under the include paths that could not be indexed (malformed YAML, a bad include): each is a
 * failed record, named as its `task:` or `group:` line names it. Files with neither line are templates
 * meant to be included, and are reported where a task includes them.
 */
function unreadable(index: TaskIndex, includePath: readonly string[] | undefined): ValidationRecord[] {
  const roots = (includePath ?? []).map((dir) => path.resolve(dir) + path.sep);
  const records: ValidationRecord[] = [];
  for (const { file, error } of index.skipped) {
    if (roots.length > 0 && !roots.some((root) => file.startsWith(root))) continue;
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {}
    const declared = /^(task|group):[ \t]*["']?([^\s"'#]+)/m.exec(text);
    if (!declared) continue;
    records.push({
      name: declared[2],
      kind: declared[1] as 'task' | 'group',
      ok: false,
      code: error.code,
      error: error.format(),
      file,
    });
  }
  return records;
}

function countRecords(records: readonly ValidationRecord[]): Record<EntryKind, ValidationCounts> {
  const empty = (): ValidationCounts => ({ total: 0, ok: 0, needsPython: 0, failed: 0 });
  const counts: Record<EntryKind, ValidationCounts> = { task: empty(), group: empty(), tag: empty() };
  for (const record of records) {
    const count = counts[record.kind];
    count.total++;
    if (record.ok) count.ok++;
    else if (record.code === 'needs_python') count.needsPython++;
    else count.failed++;
  }
  return counts;
}

/** The Python modules one entry's `!function` references need, and the first reference (for its line). */
class PythonNeeds {
  readonly modules = new Set<string>();
  /** Absolute paths of the `.py` files among them. */
  readonly files = new Set<string>();
  first?: DeferredFunction;

  add(deferred: DeferredFunction, module: string): void {
    this.modules.add(module);
    if (module.endsWith('.py')) this.files.add(path.resolve(path.dirname(deferred.yamlFile), module));
    this.first ??= deferred;
  }

  /**
   * Whether an error is Python's: a Python task class or dataset loader (`class:`, `custom_dataset:`), or a
   * filter or metric name that one of the needed modules registers (`@register_filter("name")`), which
   * lm-eval knows only once it has imported that module.
   */
  explains(error: unknown): boolean {
    if (!(error instanceof AssayError)) return false;
    // An error about a function its loader did not resolve (a group's `aggregation: !function …`).
    if (error.cause instanceof DeferredFunction) {
      const module = pythonModule(error.cause);
      if (module === undefined) return false;
      this.add(error.cause, module);
      return true;
    }
    if (this.modules.size === 0) return false;
    if (error.location.field === 'class' || error.location.field === 'custom_dataset') return true;
    const named = /^unknown (filter|metric) "([^"]+)"/.exec(error.message);
    if (!named) return false;
    const quoted = named[2].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const registers = new RegExp(`register_${named[1]}\\(\\s*(?:metric\\s*=\\s*)?["']${quoted}["']`);
    return [...this.files].some((file) => {
      try {
        return registers.test(readFileSync(file, 'utf8'));
      } catch {
        return false;
      }
    });
  }
}

/**
 * The Python module a reference needs, when no TypeScript module can serve it: `utils.py` beside the YAML
 * (lm-eval's first choice), else the importable module lm-eval falls back to.
 */
function pythonModule(deferred: DeferredFunction): string | undefined {
  const dot = deferred.ref.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const modulePath = deferred.ref.slice(0, dot);
  const folder = path.dirname(deferred.yamlFile);
  const base = path.resolve(folder, modulePath.replaceAll('.', '/'));
  if (['.ts', '.mts', '.js', '.mjs'].some((extension) => existsSync(base + extension))) return undefined;
  if (existsSync(`${base}.py`)) return path.relative(folder, `${base}.py`);
  return modulePath;
}

/**
 * resolveFunction for every reference of a config tree, except that a reference only Python can serve
 * becomes a placeholder that throws if called, and is recorded in `needs`.
 */
type Resolution = { ref: FunctionRef; files: string[] } | { python: string; error: unknown };

function deferringPython(
  needs: PythonNeeds,
  resolutions: Map<string, Promise<Resolution>>,
): FunctionResolver {
  return async <T>(value: T) => {
    const files = new Set<string>();
    const pending: Promise<void>[] = [];
    const resolveOne = async (deferred: DeferredFunction): Promise<FunctionRef> => {
      // Memoized per written reference: a template's functions are resolved once for all its tasks.
      const key = `${deferred.yamlFile}\u0000${deferred.ref}`;
      let resolution = resolutions.get(key);
      if (!resolution) {
        resolution = resolveFunction(deferred).catch((error: unknown) => {
          const python = error instanceof AssayError ? pythonModule(deferred) : undefined;
          if (python === undefined) throw error;
          return { python, error };
        });
        resolutions.set(key, resolution);
      }
      const resolved = await resolution;
      if ('ref' in resolved) {
        for (const file of resolved.files) files.add(file);
        return resolved.ref;
      }
      const module = resolved.python;
      needs.add(deferred, module);
      return {
        kind: 'function',
        ref: deferred.ref,
        file: path.resolve(path.dirname(deferred.yamlFile), module),
        fn: () => {
          throw new AssayError('function_not_found', `!function ${deferred.ref} needs Python (${module})`);
        },
      };
    };
    const walk = (node: unknown, assign: (resolved: unknown) => void): void => {
      if (node instanceof DeferredFunction) {
        pending.push(resolveOne(node).then(assign));
      } else if (Array.isArray(node)) {
        for (const [position, item] of node.entries()) {
          walk(item, (resolved) => {
            node[position] = resolved;
          });
        }
      } else if (node !== null && typeof node === 'object' && (node as FunctionRef).kind !== 'function') {
        const record = node as Record<string, unknown>;
        for (const key of Object.keys(record)) walk(record[key], (resolved) => (record[key] = resolved));
      }
    };
    const root = { value };
    walk(value, (resolved) => (root.value = resolved as T));
    await Promise.all(pending);
    return { value: root.value, files: [...files].sort() };
  };
}

class Validator {
  private readonly backend = new DummyBackend();
  private readonly tagMembers = new Map<string, ValidationRecord>();
  private readonly resolutions = new Map<string, Promise<Resolution>>();
  /** Where each `!function` is written: thousands of tasks share a few template files. */
  private readonly tagLocations = new Map<string, Promise<ErrorLocation>>();

  constructor(
    private readonly index: TaskIndex,
    private readonly options: ValidateOptions,
  ) {}

  private builder(needs: PythonNeeds): TaskNodeBuilder {
    return new TaskNodeBuilder(this.index, {
      load: { functions: deferringPython(needs, this.resolutions), check: checkTaskTemplates },
      logger: this.options.logger,
    });
  }

  async entry(entry: IndexEntry): Promise<ValidationRecord> {
    if (entry.kind === 'tag') return this.tag(entry);
    const record = await this.load(entry.name, entry.kind, entry.path, (builder) =>
      builder.buildEntry(entry, undefined, []),
    );
    if (entry.kind === 'task') this.tagMembers.set(entry.name, record);
    return record;
  }

  async file(file: string): Promise<ValidationRecord> {
    return this.load(path.basename(file), 'task', file, (builder) => builder.buildFile(file));
  }

  /** A tag is valid when every member task is; members are validated once and reused. */
  private async tag(entry: IndexEntry): Promise<ValidationRecord> {
    const members: ValidationRecord[] = [];
    for (const name of entry.tasks ?? []) {
      let member = this.tagMembers.get(name);
      if (!member) {
        const memberEntry = this.index.entries.get(name);
        if (!memberEntry) continue;
        member = await this.entry(memberEntry);
      }
      members.push(member);
    }
    const failed = members.filter((member) => !member.ok);
    const python = [...new Set(members.flatMap((member) => member.python ?? []))].sort();
    const record: ValidationRecord = { name: entry.name, kind: 'tag', ok: failed.length === 0 };
    if (python.length) record.python = python;
    if (failed.length) {
      const first = failed.find((member) => member.code !== 'needs_python') ?? failed[0];
      record.code = failed.every((member) => member.code === 'needs_python') ? 'needs_python' : first.code;
      record.error = `${failed.length} of ${members.length} tasks fail; first: ${first.name}: ${first.error}`;
    }
    return record;
  }

  private async load(
    name: string,
    kind: EntryKind,
    file: string | undefined,
    build: (builder: TaskNodeBuilder) => Promise<TaskNode>,
  ): Promise<ValidationRecord> {
    const needs = new PythonNeeds();
    const record: ValidationRecord = { name, kind, ok: false };
    if (file) record.file = file;
    let node: TaskNode;
    try {
      node = await build(this.builder(needs));
    } catch (error) {
      if (needs.explains(error)) return this.needsPython(record, needs);
      return this.failed(record, error, needs);
    }
    record.name = node.name;
    if (node.kind === 'task') record.outputType = node.config.output_type;
    if (needs.modules.size > 0) return this.needsPython(record, needs);
    if (this.options.data && node.kind === 'task') {
      try {
        Object.assign(record, await this.checkData(node));
      } catch (error) {
        return this.failed(record, error, needs);
      }
    }
    record.ok = true;
    return record;
  }

  private async checkData(task: LoadedTask): Promise<Partial<ValidationRecord>> {
    const plan = await planTask(task, {
      limit: 1,
      fewshotSeed: 1234,
      applyChatTemplate: false,
      fewshotAsMultiturn: false,
      genKwargs: {},
      backend: this.backend,
    });
    return { docs: plan.original, requests: plan.docs[0]?.instances.length ?? 0 };
  }

  private async needsPython(record: ValidationRecord, needs: PythonNeeds): Promise<ValidationRecord> {
    const modules = [...needs.modules].sort();
    const first = needs.first as DeferredFunction;
    const key = `${first.yamlFile}\u0000${first.ref}`;
    let location = this.tagLocations.get(key);
    if (!location) {
      location = locateFunctionTag(first.yamlFile, first.ref);
      this.tagLocations.set(key, location);
    }
    const error = new AssayError('function_not_found', `needs Python: ${modules.join(', ')}`, {
      location: await location,
    });
    return { ...record, ok: false, code: 'needs_python', python: modules, error: error.format() };
  }

  private failed(record: ValidationRecord, error: unknown, needs: PythonNeeds): ValidationRecord {
    const failed: ValidationRecord = { ...record, ok: false };
    if (needs.modules.size > 0) failed.python = [...needs.modules].sort();
    if (error instanceof AssayError) {
      failed.code = error.code;
      failed.error = error.format();
    } else {
      // A bug in assay, not in the task: reported as such, and the other entries still run.
      failed.code = 'internal_error';
      failed.error = `internal error: ${(error as Error)?.message ?? String(error)}`;
    }
    return failed;
  }
}
