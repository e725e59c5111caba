/**
 * `assay validate`: loads every requested task, group and tag and reports each one, rather than stopping
 * at the first error, so a CI job can lint a whole task tree. Without data it checks what a config alone
 * can show: YAML, includes, `!function` references, the syntax of every template, and metric, aggregation
 * and filter names. With data it also reads each task's evaluation split and builds doc 0's requests.
 *
 * A `!function` that points at a Python module (lm-eval's `utils.py`) is checked through the Python
 * bridge: its module is imported in the interpreter (`python`, else ASSAY_PYTHON, else python3) and the
 * function looked up, as a run would. Without an interpreter, an entry whose only problem is that is
 * reported as `needs_python`, naming the modules, and one with another problem reports that problem.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { checkTaskTemplates } from '../prompts/check-templates.js';
import type { PythonFunctionRef } from '../python/python-ref.js';
import { PythonRuntime } from '../python/python-runtime.js';
import type { EntryKind, IndexEntry, TaskIndex, TaskLogger } from '../tasks/index.js';
import { indexForSpecs, splitTaskSpecs, TaskNodeBuilder } from '../tasks/manager.js';
import { pythonRefsOf } from '../tasks/python-for-tasks.js';
import type { LoadedTask, TaskNode } from '../tasks/task.js';
import { locateFunctionTag } from '../tasks/yaml-loader.js';
import { planTask } from './plan.js';

export interface ValidationRecord {
  name: string;
  kind: EntryKind;
  ok: boolean;
  /** The first failure, `file:line:col: reason`; absent when ok. */
  error?: string;
  /** The failure's error code; `needs_python` when no interpreter could run its Python `!function`s. */
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
  /** Failed only because no Python interpreter could run their `!function` modules. */
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
  /** The interpreter for Python `!function`s (`--python`); default ASSAY_PYTHON, else python3. */
  python?: string;
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
  try {
    for (const target of targets) {
      const record = 'file' in target ? await validator.file(target.file) : await validator.entry(target);
      const key = `${record.kind}:${record.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      records.push(record);
      options.onRecord?.(record);
    }
  } finally {
    await validator.close();
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

/** How long one entry's Python imports may take before the worker is taken for hung and replaced. */
const BIND_TIMEOUT_MS = 120_000;

class Validator {
  private readonly backend = new DummyBackend();
  private readonly tagMembers = new Map<string, ValidationRecord>();
  private readonly builder: TaskNodeBuilder;
  /** Started at the first entry with Python functions. */
  private runtime?: PythonRuntime;

  constructor(
    private readonly index: TaskIndex,
    private readonly options: ValidateOptions,
  ) {
    this.builder = new TaskNodeBuilder(index, {
      load: { check: checkTaskTemplates },
      logger: options.logger,
      python: options.python,
    });
  }

  async close(): Promise<void> {
    await this.runtime?.close();
  }

  async entry(entry: IndexEntry): Promise<ValidationRecord> {
    if (entry.kind === 'tag') return this.tag(entry);
    const record = await this.load(entry.name, entry.kind, entry.path, () =>
      this.builder.buildEntry(entry, undefined, []),
    );
    if (entry.kind === 'task') this.tagMembers.set(entry.name, record);
    return record;
  }

  async file(file: string): Promise<ValidationRecord> {
    return this.load(path.basename(file), 'task', file, () => this.builder.buildFile(file));
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
    build: () => Promise<TaskNode>,
  ): Promise<ValidationRecord> {
    const record: ValidationRecord = { name, kind, ok: false };
    if (file) record.file = file;
    let node: TaskNode;
    try {
      node = await build();
    } catch (error) {
      return this.failed(record, error);
    }
    record.name = node.name;
    if (node.kind === 'task') record.outputType = node.config.output_type;
    const refs = pythonRefsOf([node]);
    if (refs.length > 0) {
      record.python = modulesOf(refs, file);
      const problem = await this.bind(refs);
      if (problem) return this.failed(record, problem);
    }
    if (this.options.data && node.kind === 'task') {
      try {
        Object.assign(record, await this.checkData(node));
      } catch (error) {
        return this.failed(record, error);
      }
    }
    record.ok = true;
    return record;
  }

  /** Imports the entry's Python modules and finds each function, as a run would; the first problem. */
  private async bind(refs: PythonFunctionRef[]): Promise<AssayError | undefined> {
    if (!this.runtime) {
      try {
        // Each entry without an interpreter gets the error naming its own function (a PATH lookup).
        this.runtime = await PythonRuntime.start({ python: this.options.python }, refs[0]);
      } catch (error) {
        if (!(error instanceof AssayError)) throw error;
        // Located at the reference (file:line:col), as other config errors are.
        const location = await locateFunctionTag(refs[0].yamlFile, refs[0].ref);
        return new AssayError(error.code, error.message, { location, cause: error });
      }
    }
    const runtime = this.runtime;
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), BIND_TIMEOUT_MS);
    });
    try {
      const outcome = await Promise.race([runtime.tryBind(refs), hung]);
      if (outcome !== 'hung') return outcome.find((failure) => failure !== undefined);
    } catch (error) {
      // A module that ended the worker: this entry's error; the entries after it get a new worker.
      if (!(error instanceof AssayError)) throw error;
      runtime.kill();
      this.runtime = undefined;
      return error;
    } finally {
      clearTimeout(timer);
    }
    // A module whose import never returns: the worker is replaced for the entries after this one.
    runtime.kill();
    this.runtime = undefined;
    return new AssayError(
      'python_error',
      `importing ${refs[0].module} did not finish within ${BIND_TIMEOUT_MS / 1000} s`,
      { location: { file: refs[0].yamlFile } },
    );
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

  private failed(record: ValidationRecord, error: unknown): ValidationRecord {
    const failed: ValidationRecord = { ...record, ok: false };
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

/** The Python modules of an entry's functions, relative to its file's folder (`utils.py`). */
function modulesOf(refs: readonly PythonFunctionRef[], file: string | undefined): string[] {
  const folder = file ? path.dirname(file) : undefined;
  const modules = refs
    .filter((ref) => !ref.hfEvaluate && !ref.registeredFilter)
    .map((ref) => (folder ? path.relative(folder, ref.module) : ref.module));
  return [...new Set(modules)].sort();
}
