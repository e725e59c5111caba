/**
 * Reads lm-eval task and group YAML: the `!function` tag, recursive `include:` merging, and locations
 * (file:line:col) for error messages. Parsing is memoized per process because thousands of task files
 * include the same few templates, and the task index must stay fast.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type ScalarTag, visit } from 'yaml';
import { AssayError, type ErrorLocation } from '../errors.js';

/**
 * A `!function module.name` value, kept unresolved: lm-eval does not import task code while indexing,
 * and neither do we. `resolveFunction` (function-ref.ts) turns it into a FunctionRef when a task loads.
 */
export class DeferredFunction {
  constructor(
    /** As written, e.g. `utils.process_docs`. */
    readonly ref: string,
    /** The YAML file the tag was written in; the module is looked up beside it. */
    readonly yamlFile: string,
  ) {}
}

export type YamlValue = unknown;
export type YamlMapping = Record<string, YamlValue>;

/** One parsed file, before includes are merged. */
interface ParsedYamlFile {
  path: string;
  data: YamlMapping;
}

/** A file with its includes merged. `files` lists the file and every file it includes, each once. */
export interface LoadedYaml {
  path: string;
  config: YamlMapping;
  files: string[];
  /** For each top-level key, the file that gave it its value (for error locations). */
  keyFiles: Map<string, string>;
}

// Synchronous on purpose: for thousands of small files, readFileSync is about 8x faster than
// readFile (which makes several thread-pool round trips per file); measured on the 10,000-task tree.
const parsedFiles = new Map<string, ParsedYamlFile>();
const mergedFiles = new Map<string, LoadedYaml>();

/** Forget memoized parses, e.g. after files changed on disk in a long-lived process. */
export function clearYamlCache(): void {
  parsedFiles.clear();
  mergedFiles.clear();
}

// PyYAML (which lm-eval uses) implements YAML 1.1, so `on`/`off`/`yes`/`no` are booleans there too.
function parseOptions(file: string) {
  const functionTag: ScalarTag = {
    tag: '!function',
    resolve: (value: string) => new DeferredFunction(value.trim(), file),
  };
  // uniqueKeys false: PyYAML lets a later duplicate key win instead of failing.
  return { version: '1.1' as const, customTags: [functionTag], uniqueKeys: false, prettyErrors: true };
}

/** Parses YAML text (exported for tests and for callers that hold text, not files). */
export function parseYamlText(text: string, file: string): YamlValue {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...parseOptions(file), lineCounter });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    const position = error.linePos?.[0];
    // yaml's message repeats the position and a code excerpt; keep its first line only.
    const reason = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new AssayError('yaml_syntax', `malformed YAML: ${reason}`, {
      location: { file, line: position?.line, column: position?.col },
      cause: error,
    });
  }
  return doc.toJS({ maxAliasCount: -1 });
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : String(error);
    throw new AssayError('invalid_config', `cannot read ${file}: ${reason}`, {
      location: { file },
      cause: error,
    });
  }
}

/** Parses one file (memoized; failures are not cached, so a fixed file parses on the next try). */
function parseFile(file: string): ParsedYamlFile {
  const cached = parsedFiles.get(file);
  if (cached) return cached;
  const data = parseYamlText(readText(file), file);
  if (data === null || typeof data !== 'object' || Array.isArray(data) || data instanceof DeferredFunction) {
    throw new AssayError(
      'invalid_config',
      `expected a YAML mapping (key: value) at the top level of ${file}`,
      {
        location: { file, line: 1, column: 1 },
      },
    );
  }
  const parsed = { path: file, data: data as YamlMapping };
  parsedFiles.set(file, parsed);
  return parsed;
}

/**
 * Loads a YAML file with `include:` merged recursively (included keys first, local keys win, later
 * includes override earlier ones), as lm-eval's `load_yaml` does. `task_list` is not inherited.
 */
export async function loadYaml(file: string): Promise<LoadedYaml> {
  try {
    return loadYamlSync(file);
  } catch (error) {
    throw await locateIncludeError(error);
  }
}

/** loadYaml without the include locations in errors (they need an async re-parse); used by the index. */
export function loadYamlSync(file: string): LoadedYaml {
  return loadWithStack(path.resolve(file), []);
}

/** Thrown inside the include walk; turned into an AssayError located at the `include:` line. */
class IncludeError extends Error {
  constructor(
    readonly inner: AssayError,
    readonly includer: string,
    readonly target: string,
    readonly keyPath: (string | number)[],
  ) {
    super(inner.message);
  }
}

function loadWithStack(file: string, stack: string[]): LoadedYaml {
  if (stack.includes(file)) {
    const cycle = [...stack.slice(stack.indexOf(file)), file]
      .map((entry) => path.basename(entry))
      .join(' → ');
    // The location (the `include:` that closes the cycle) is filled in by the includer.
    throw new AssayError('include_cycle', `include cycle: ${cycle}`);
  }
  // A merged result does not depend on the stack unless there is a cycle, and a cycle throws, which
  // is never cached, so memoizing by file alone is sound.
  const cached = mergedFiles.get(file);
  if (cached) return cached;
  const loaded = mergeIncludes(file, [...stack, file]);
  mergedFiles.set(file, loaded);
  return loaded;
}

function mergeIncludes(file: string, stack: string[]): LoadedYaml {
  const parsed = parseFile(file);
  const keyFiles = new Map<string, string>();
  if (!('include' in parsed.data)) {
    for (const key of Object.keys(parsed.data)) keyFiles.set(key, file);
    return { path: file, config: parsed.data, files: [file], keyFiles };
  }
  const { include, ...local } = parsed.data;
  const includes = Array.isArray(include) ? include : [include];
  const merged: YamlMapping = {};
  const files = [file];
  for (const [index, entry] of includes.entries()) {
    const keyPath = Array.isArray(include) ? ['include', index] : ['include'];
    if (typeof entry !== 'string') {
      throw new IncludeError(
        new AssayError('invalid_config', 'include must be a file name or a list of file names'),
        file,
        '',
        keyPath,
      );
    }
    const target = path.resolve(path.dirname(file), entry);
    let included: LoadedYaml;
    try {
      included = loadWithStack(target, stack);
    } catch (error) {
      if (error instanceof AssayError && needsIncludeLocation(error, target)) {
        throw new IncludeError(error, file, target, keyPath);
      }
      throw error;
    }
    // Included keys first, later includes over earlier ones, local keys last; task_list is per file.
    const { task_list: _notInherited, ...inherited } = included.config;
    Object.assign(merged, inherited);
    for (const key of Object.keys(inherited)) keyFiles.set(key, included.keyFiles.get(key) ?? included.path);
    for (const includedFile of included.files) if (!files.includes(includedFile)) files.push(includedFile);
  }
  Object.assign(merged, local);
  for (const key of Object.keys(local)) keyFiles.set(key, file);
  return { path: file, config: merged, files, keyFiles };
}

/** A cycle (no location yet) or an unreadable include (located at the missing file itself). */
function needsIncludeLocation(error: AssayError, target: string): boolean {
  if (error.code === 'include_cycle') return error.location.file === undefined;
  return (
    error.code === 'invalid_config' && error.location.file === target && error.location.line === undefined
  );
}

/** Points an include error at the `include:` entry that caused it. */
async function locateIncludeError(error: unknown): Promise<unknown> {
  if (!(error instanceof IncludeError)) return error;
  const { inner, includer, target } = error;
  const message =
    inner.code === 'invalid_config' && target !== ''
      ? `include ${path.relative(path.dirname(includer), target)}: ${inner.message}`
      : inner.message;
  return new AssayError(inner.code, message, {
    location: await locateKey(includer, error.keyPath),
    cause: inner.cause ?? inner,
  });
}

/**
 * Where `keyPath` is written in `file`: the line and column of its value (or of the deepest part of
 * the path that exists). Re-parses the file, so call it only when reporting an error.
 */
export async function locateKey(file: string, keyPath: readonly (string | number)[]): Promise<ErrorLocation> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { file };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...parseOptions(file), lineCounter });
  let node: unknown = doc.contents;
  let position = (node as Node | null)?.range?.[0] ?? 0;
  for (const part of keyPath) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(part));
      if (!pair) break;
      // Point at the key for a top-level field: that is what "unknown field" needs.
      position = (pair.key as Node).range?.[0] ?? position;
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number' && node.items[part]) {
      node = node.items[part];
      position = (node as Node).range?.[0] ?? position;
    } else {
      break;
    }
  }
  const { line, col } = lineCounter.linePos(position);
  return { file, line, column: col };
}

/** Where a `!function` tag with this reference is written in `file`. */
export async function locateFunctionTag(file: string, ref: string): Promise<ErrorLocation> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { file };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...parseOptions(file), lineCounter });
  let position: number | undefined;
  visit(doc, {
    Scalar(_key, node) {
      if (node.tag === '!function' && node.value instanceof DeferredFunction && node.value.ref === ref) {
        position = node.range?.[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (position === undefined) return { file };
  const { line, col } = lineCounter.linePos(position);
  return { file, line, column: col };
}

/**
 * A deep copy that keeps DeferredFunction instances (structuredClone would turn them into plain
 * objects). Memoized parses are shared between tasks, so a task gets its own copy before overrides.
 */
export function cloneYaml<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneYaml(item)) as T;
  if (value !== null && typeof value === 'object' && !(value instanceof DeferredFunction)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = cloneYaml(item);
    return copy as T;
  }
  return value;
}
