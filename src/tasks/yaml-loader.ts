/**
 * Reads lm-eval task and group YAML: the `!function` tag, recursive `include:` merging, and locations
 * (file:line:col) for error messages. Parsing is memoized per process because thousands of task files
 * include the same few templates, and the task index must stay fast.
 *
 * Values come from js-yaml with PyYAML's typing (pyyaml-schema.ts): it reads every file PyYAML reads
 * (a quoted scalar whose continuation line is less indented, which the `yaml` package rejects) and is
 * several times faster than `yaml`'s document API. Error messages and key locations still come from
 * `yaml`'s document API, which keeps source ranges; it runs only when there is an error to report.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import jsYaml from 'js-yaml';
import type { Node, ScalarTag } from 'yaml';
import { AssayError, type ErrorLocation } from '../errors.js';
import type { FileStamp } from '../util/file-stamp.js';
import { resolveNormal } from '../util/normal-paths.js';
import { readStamped, type StampedText } from '../util/read-stamped.js';
import { pyyamlSchema } from './pyyaml-schema.js';
import { readTopKeys } from './yaml-keys.js';

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
  /** The file's stamp, taken through the descriptor its text was read from (absent: read otherwise). */
  stamp?: FileStamp;
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
// What loads with `keys` (the index) made of included files: only those keys (yaml-keys.ts), so never
// handed to a load of the whole file, and all for one `keys` list (another list starts them afresh). A
// load with keys takes these before the whole parses above, and memoizedParse reports their stamps first:
// a file parsed both ways was read twice, and what a keyed load built must carry the stamp of its own read.
const keyedFiles = new Map<string, ParsedYamlFile>();
const keyedMerged = new Map<string, LoadedYaml>();
let keyedFor: readonly string[] | undefined;
/** `keyedFor` and `include`, which the loader follows: what yaml-keys.ts is asked for. */
let keyedRead: ReadonlySet<string> = new Set();

// A path already absolute and normal (no empty, `.` or `..` segment, no trailing separator) is its own
// resolution: the index resolves tens of thousands of them, and path.resolve's normalizing was a tenth of
// a cold scan's JavaScript. Three searches screen them (a name starting with a dot, `/.git`, is resolved
// too: the screen may send a normal path to path.resolve, never the reverse).
function resolvePath(file: string): string {
  return path.sep === '/' &&
    file.startsWith('/') &&
    !file.includes('//') &&
    !file.includes('/.') &&
    !file.endsWith('/')
    ? file
    : path.resolve(file);
}

/**
 * `entry` resolved against the folder of `file` (absolute and normal). A plain name is joined to the folder
 * found by one native search (path.dirname walks the path character by character in JavaScript, once per
 * include of thousands of files in a cold command); a relative one (`../_template_yaml`) is resolved by
 * segments (util/normal-paths.ts).
 */
export function resolveBeside(file: string, entry: string): string {
  if (path.sep === '/') {
    const slash = file.lastIndexOf('/');
    if (!entry.includes('/') && entry !== '.' && entry !== '..' && entry !== '')
      return slash <= 0 ? `/${entry}` : `${file.slice(0, slash)}/${entry}`;
    const resolved = resolveNormal(slash <= 0 ? '/' : file.slice(0, slash), entry);
    if (resolved !== undefined) return resolved;
  }
  return path.resolve(path.dirname(file), entry);
}

/** Forget memoized parses, e.g. after files changed on disk in a long-lived process. */
export function clearYamlCache(): void {
  parsedFiles.clear();
  mergedFiles.clear();
  keyedFiles.clear();
  keyedMerged.clear();
  keyedFor = undefined;
}

// `yaml` is loaded on first use: only errors need it, and loading it costs a command tens of ms.
let yamlPackage: typeof import('yaml') | undefined;
function documentApi(): typeof import('yaml') {
  yamlPackage ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlPackage;
}

// For locating keys and wording errors with `yaml`: YAML 1.1 as in PyYAML; a later duplicate key wins.
function parseOptions(file: string) {
  const functionTag: ScalarTag = {
    tag: '!function',
    resolve: (value: string) => new DeferredFunction(value.trim(), file),
  };
  return { version: '1.1' as const, customTags: [functionTag], uniqueKeys: false, prettyErrors: true };
}

// js-yaml calls a tag's constructor without the file name; parsing is synchronous, so the file being
// parsed is held here for the `!function` constructor (one schema for every file, built once).
let parsingFile = '';
const schema = pyyamlSchema((ref) => new DeferredFunction(ref.trim(), parsingFile));

/**
 * At most this many values once aliases are expanded. An alias bomb (each anchor aliasing the previous
 * one several times) is a few lines that expand to billions of values and would exhaust memory when a
 * config is copied; lm-eval's task files use no aliases at all.
 */
export const MAX_EXPANDED_VALUES = 100_000;
const ALIAS = /(?:^|[\s[{,])\*[^\s,\]}]/m;

/** Parses YAML text (exported for tests and for callers that hold text, not files). */
export function parseYamlText(text: string, file: string): YamlValue {
  let value: unknown;
  parsingFile = file;
  try {
    // json: a later duplicate key wins instead of failing, as in PyYAML.
    value = jsYaml.load(text, { schema, json: true, filename: file });
  } catch (error) {
    throw syntaxError(text, file, error);
  } finally {
    parsingFile = '';
  }
  // Without an alias (`*name` after a space, a flow indicator or at a line start) the value is a tree
  // no larger than the text; a `*` or `&` inside words and quoted text ("Q&A", "2*3") is no alias.
  if (text.includes('*') && ALIAS.test(text)) checkExpansion(value, file, text);
  return value;
}

/** The error of a file js-yaml rejects: `yaml`'s wording and position when it agrees, else js-yaml's. */
function syntaxError(text: string, file: string, error: unknown): AssayError {
  const { parseDocument, LineCounter } = documentApi();
  const doc = parseDocument(text, { ...parseOptions(file), lineCounter: new LineCounter() });
  const first = doc.errors[0];
  if (first) {
    const position = first.linePos?.[0];
    // yaml's message repeats the position and a code excerpt; keep its first line only.
    const reason = first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    return new AssayError('yaml_syntax', `malformed YAML: ${reason}`, {
      location: { file, line: position?.line, column: position?.col },
      cause: error,
    });
  }
  const mark = (error as { mark?: { line: number; column: number } }).mark;
  const reason = ((error as { reason?: string }).reason ?? String(error)).split('\n')[0];
  return new AssayError('yaml_syntax', `malformed YAML: ${reason}`, {
    location: { file, line: mark ? mark.line + 1 : undefined, column: mark ? mark.column + 1 : undefined },
    cause: error,
  });
}

/** Counts values as if every alias were a copy (shared nodes are counted once per use, in linear time). */
function checkExpansion(value: unknown, file: string, text: string): void {
  const sizes = new Map<object, number>();
  const size = (node: unknown): number => {
    if (node === null || typeof node !== 'object' || node instanceof DeferredFunction) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    sizes.set(node, Number.POSITIVE_INFINITY); // a cycle (a recursive alias) expands without end
    let total = 1;
    for (const item of Array.isArray(node) ? node : Object.values(node)) {
      total += size(item);
      if (total > MAX_EXPANDED_VALUES) break;
    }
    sizes.set(node, total);
    return total;
  };
  const total = size(value);
  if (total > MAX_EXPANDED_VALUES) {
    throw new AssayError(
      'yaml_syntax',
      `YAML aliases expand to more than ${MAX_EXPANDED_VALUES.toLocaleString('en-US')} values (an alias bomb?); a task config is far smaller, and lm-eval's use no aliases`,
      { location: { file, line: aliasLine(text) } },
    );
  }
}

/** The line of the first alias (`*name`), for the error location. */
function aliasLine(text: string): number | undefined {
  const index = text.split('\n').findIndex((line) => ALIAS.test(line));
  return index >= 0 ? index + 1 : undefined;
}

/** A task file that could not be read, as a task load and the index word it. */
export function unreadableFile(file: string, error: unknown): AssayError {
  const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : String(error);
  return new AssayError('invalid_config', `cannot read ${file}: ${reason}`, {
    location: { file },
    cause: error,
  });
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw unreadableFile(file, error);
  }
}

/** A file's text and, read through one descriptor, its stamp; a file that cannot be read so is worded by readText. */
function readTextStamped(file: string): StampedText | { text: string; stamp?: undefined } {
  try {
    return readStamped(file);
  } catch {
    return { text: readText(file) };
  }
}

/**
 * Parses one file (memoized; failures are not cached, so a fixed file parses on the next try). `read`:
 * the file's text and stamp, already read by the caller.
 */
function parseFile(file: string, memoize = true, read?: { text: string; stamp?: FileStamp }): ParsedYamlFile {
  const cached = parsedFiles.get(file);
  if (cached) return cached;
  const { text, stamp } = read ?? readTextStamped(file);
  const data = parseYamlText(text, file);
  if (data === null || typeof data !== 'object' || Array.isArray(data) || data instanceof DeferredFunction) {
    throw new AssayError(
      'invalid_config',
      `expected a YAML mapping (key: value) at the top level of ${file}`,
      {
        location: { file, line: 1, column: 1 },
      },
    );
  }
  const parsed: ParsedYamlFile = { path: file, data: data as YamlMapping };
  if (stamp) parsed.stamp = stamp;
  if (memoize) parsedFiles.set(file, parsed);
  return parsed;
}

/**
 * The keys of `keyedFor` and `include` of one file, for a load with keys (the index): read by yaml-keys.ts
 * without building the rest of the file when the text is in the subset it vouches for, else parsed whole
 * by js-yaml. A file already parsed whole, or for these keys, is not read again. `memoize`: keep the
 * result (an included file, which other files include too).
 */
function parseKeys(file: string, memoize: boolean, read?: StampedText): ParsedYamlFile {
  const cached = keyedFiles.get(file) ?? parsedFiles.get(file);
  if (cached) return cached;
  const own = read ?? readTextStamped(file);
  const data = readTopKeys(own.text, keyedRead);
  if (data === undefined) return parseFile(file, memoize, own);
  const parsed: ParsedYamlFile = { path: file, data };
  if (own.stamp) parsed.stamp = own.stamp;
  if (memoize) keyedFiles.set(file, parsed);
  return parsed;
}

/**
 * Whether `file` (absolute) has a memoized parse, and the stamp of the text it was read from: a cache of
 * what was made from that parse must carry this stamp, not a later one (the file may have changed since).
 */
export function memoizedParse(file: string): { stamp?: FileStamp } | undefined {
  const parsed = keyedFiles.get(file) ?? parsedFiles.get(file);
  return parsed && { stamp: parsed.stamp };
}

/**
 * The file's own top-level mapping, its includes not read; undefined when the file itself does not parse.
 * For saying which task a file that failed to load defines.
 */
export function ownMapping(file: string): YamlMapping | undefined {
  try {
    return parseFile(path.resolve(file), false).data;
  } catch {
    return undefined;
  }
}

/**
 * Loads a YAML file with `include:` merged recursively (included keys first, local keys win, later
 * includes override earlier ones), as lm-eval's `load_yaml` does. `task_list` is not inherited.
 */
export async function loadYaml(file: string, options: LoadYamlOptions = {}): Promise<LoadedYaml> {
  try {
    return loadYamlSync(file, options);
  } catch (error) {
    throw await locateIncludeError(error);
  }
}

export interface LoadYamlOptions {
  /**
   * Keep the file's parse and merged config for later loads (default true). The index reads each of
   * thousands of task files once and keeps a few keys, so it memoizes only the files they include:
   * parses that die young cost the garbage collector little.
   */
  memoize?: boolean;
  /**
   * Read and merge only these top-level keys, of the file and of its includes (yaml-keys.ts reads them
   * without building the rest when it can): the index reads a few keys of each of thousands of files.
   * The file's own result is not memoized; its includes' are, for these keys only.
   */
  keys?: readonly string[];
  /** The file's own text and stamp, already read (the index's scan reads and stamps each file once). */
  read?: StampedText;
}

/** loadYaml without the include locations in errors (they need an async re-parse). */
export function loadYamlSync(file: string, options: LoadYamlOptions = {}): LoadedYaml {
  const absolute = resolvePath(file);
  if (options.keys) {
    if (keyedFor !== options.keys) {
      keyedFiles.clear();
      keyedMerged.clear();
      keyedFor = options.keys;
      keyedRead = new Set([...options.keys, 'include']);
    }
    return mergeIncludes(absolute, [absolute], false, options.keys, options.read);
  }
  return loadWithStack(absolute, [], options.memoize ?? true);
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

function loadWithStack(file: string, stack: string[], memoize = true, keys?: readonly string[]): LoadedYaml {
  if (stack.includes(file)) {
    const cycle = [...stack.slice(stack.indexOf(file)), file]
      .map((entry) => path.basename(entry))
      .join(' → ');
    // The location (the `include:` that closes the cycle) is filled in by the includer.
    throw new AssayError('include_cycle', `include cycle: ${cycle}`);
  }
  // A merged result does not depend on the stack unless there is a cycle, and a cycle throws, which
  // is never cached, so memoizing by file alone is sound.
  const cached = (keys && keyedMerged.get(file)) || mergedFiles.get(file);
  if (cached) return cached;
  const loaded = mergeIncludes(file, [...stack, file], memoize, keys);
  if (memoize) (keys ? keyedMerged : mergedFiles).set(file, loaded);
  return loaded;
}

/** Where the `include:` entry at `index` is, for an error's location. */
function includeKeyPath(include: unknown, index: number): (string | number)[] {
  return Array.isArray(include) ? ['include', index] : ['include'];
}

function mergeIncludes(
  file: string,
  stack: string[],
  memoize: boolean,
  keys?: readonly string[],
  read?: StampedText,
): LoadedYaml {
  const parsed = keys ? parseKeys(file, memoize, read) : parseFile(file, memoize, read);
  if (!('include' in parsed.data)) {
    return new MergedYaml(file, parsed.data, [file], NO_SOURCES, parsed.data);
  }
  const { include } = parsed.data;
  let local: YamlMapping;
  if (keys) {
    local = {};
    // Indexed loops in this function: the index's cold scan runs it for each of thousands of files in V8's
    // interpreter, where for-of and destructuring go through the iterator protocol.
    for (let at = 0; at < keys.length; at++)
      if (keys[at] in parsed.data) local[keys[at]] = parsed.data[keys[at]];
  } else {
    const { include: _include, ...rest } = parsed.data;
    local = rest;
  }
  const includes = Array.isArray(include) ? include : [include];
  const merged: YamlMapping = {};
  const files = [file];
  const sources: LoadedYaml[] = [];
  for (let index = 0; index < includes.length; index++) {
    const entry = includes[index];
    if (typeof entry !== 'string') {
      throw new IncludeError(
        new AssayError('invalid_config', 'include must be a file name or a list of file names'),
        file,
        '',
        includeKeyPath(include, index),
      );
    }
    const target = resolveBeside(file, entry);
    let included: LoadedYaml;
    try {
      included = loadWithStack(target, stack, true, keys);
    } catch (error) {
      if (error instanceof AssayError && needsIncludeLocation(error, target)) {
        throw new IncludeError(error, file, target, includeKeyPath(include, index));
      }
      throw error;
    }
    // Included keys first, later includes over earlier ones, local keys last; task_list is per file.
    if (keys) {
      for (let at = 0; at < keys.length; at++) {
        const key = keys[at];
        if (key !== 'task_list' && key in included.config) merged[key] = included.config[key];
      }
    } else {
      inheritIncluded(merged, included.config);
    }
    sources.push(included);
    for (let at = 0; at < included.files.length; at++)
      if (!files.includes(included.files[at])) files.push(included.files[at]);
  }
  Object.assign(merged, local);
  return new MergedYaml(file, merged, files, sources, local);
}

/**
 * lm-eval's include rule, one included config at a time: its keys over those inherited before, but
 * `task_list`, which is the including file's own. The including file's keys go over all of them after.
 */
export function inheritIncluded<T>(merged: Record<string, T>, included: Record<string, T>): void {
  for (const key in included) if (key !== 'task_list') merged[key] = included[key];
}

/** The sources of a file without includes (one array for all of them). */
const NO_SOURCES: readonly LoadedYaml[] = [];

/**
 * A merged file whose `keyFiles` is computed on first use: only error messages need it, and the
 * index, which loads thousands of files, never does.
 */
class MergedYaml implements LoadedYaml {
  // Declared, and assigned in the constructor: class fields (and parameter properties, emitted as fields
  // for ES2022) are each defined through a field initializer, which costs the index's cold scan a few
  // milliseconds over its 13,000 instances.
  declare readonly path: string;
  declare readonly config: YamlMapping;
  declare readonly files: string[];
  declare private readonly sources: readonly LoadedYaml[];
  declare private readonly local: YamlMapping;
  declare private keyFileMap: Map<string, string> | undefined;

  constructor(
    file: string,
    config: YamlMapping,
    files: string[],
    sources: readonly LoadedYaml[],
    local: YamlMapping,
  ) {
    this.path = file;
    this.config = config;
    this.files = files;
    this.sources = sources;
    this.local = local;
    this.keyFileMap = undefined;
  }

  get keyFiles(): Map<string, string> {
    if (!this.keyFileMap) {
      const keyFiles = new Map<string, string>();
      for (const included of this.sources) {
        for (const key of Object.keys(included.config)) {
          if (key !== 'task_list') keyFiles.set(key, included.keyFiles.get(key) ?? included.path);
        }
      }
      for (const key of Object.keys(this.local)) keyFiles.set(key, this.path);
      this.keyFileMap = keyFiles;
    }
    return this.keyFileMap;
  }
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
  let text: string | undefined;
  try {
    text = await readFile(error.includer, 'utf8');
  } catch {}
  return includeErrorAt(error, text);
}

/**
 * An error of `loadYamlSync` as an AssayError: include errors located at their `include:` entry (the
 * including file is read again, synchronously). Other errors are returned as they are.
 */
export function locateLoadError(error: unknown): unknown {
  if (!(error instanceof IncludeError)) return error;
  let text: string | undefined;
  try {
    text = readFileSync(error.includer, 'utf8');
  } catch {}
  return includeErrorAt(error, text);
}

function includeErrorAt(error: IncludeError, text: string | undefined): AssayError {
  const { inner, includer, target } = error;
  const message =
    inner.code === 'invalid_config' && target !== ''
      ? `include ${path.relative(path.dirname(includer), target)}: ${inner.message}`
      : inner.message;
  return new AssayError(inner.code, message, {
    location: text === undefined ? { file: includer } : locateKeyInText(text, includer, error.keyPath),
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
  return locateKeyInText(text, file, keyPath);
}

/**
 * The start offset, in its document's text, of the deepest node of `keyPath` present under `contents` (a
 * parsed YAML document's): a mapping entry's key (what "unknown field" points at), a sequence item itself.
 */
export function keyPathOffset(contents: unknown, keyPath: readonly (string | number)[]): number {
  const { isMap, isScalar, isSeq } = documentApi();
  let node: unknown = contents;
  let position = (node as Node | null)?.range?.[0] ?? 0;
  for (const part of keyPath) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(part));
      if (!pair) break;
      position = (pair.key as Node).range?.[0] ?? position;
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number' && node.items[part]) {
      node = node.items[part];
      position = (node as Node).range?.[0] ?? position;
    } else {
      break;
    }
  }
  return position;
}

function locateKeyInText(text: string, file: string, keyPath: readonly (string | number)[]): ErrorLocation {
  const { parseDocument, LineCounter } = documentApi();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...parseOptions(file), lineCounter });
  const position = keyPathOffset(doc.contents, keyPath);
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
  const { parseDocument, LineCounter, visit } = documentApi();
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
