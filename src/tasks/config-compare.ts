/**
 * Whether two definitions of one task name are the same config (overrides.ts decides which overrides
 * matter by it). Its own module: it loads the YAML loader, which a warm listing does not need.
 *
 * Two YAML configs are first compared as written: each file's top-level values as text (yaml-keys.ts
 * reads them, with the includes merged as the loader merges them). A key only one config has differs;
 * a key both have with the same text is the same value. When that decides every key, no file is parsed
 * whole: a cold listing of lm-eval's tree compares its 79 redefinitions of the built-in tasks, and
 * js-yaml's parse of their 160 files, cold, with its optimizing compiler's work on the other core, was
 * about a tenth of the command. A key both have written differently (a value may be written in more than
 * one way), a file outside the reader's subset, or one that cannot be read, sends the pair to the loader,
 * which parses both configs whole and compares their values.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { IndexEntry, TaskOverride } from './index-types.js';
import { readTopKeys } from './yaml-keys.js';
import { DeferredFunction, inheritIncluded, loadYamlSync, resolveBeside } from './yaml-loader.js';

/** A config with each `!function` as its name: the same reference written in two files compares equal. */
function comparable(value: unknown): unknown {
  if (value instanceof DeferredFunction) return `!function ${value.ref}`;
  if (Array.isArray(value)) return value.map(comparable);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, comparable(item)]));
  return value;
}

export type Comparison = Pick<TaskOverride, 'sameConfig' | 'differingKeys'>;

const INCLUDE = new Set(['include']);

/** A config's top-level values as written, includes merged, and every file read for it. */
interface WrittenConfig {
  values: Record<string, string>;
  files: string[];
}

/**
 * `file`'s config as written, its includes merged by the loader's rule (`inheritIncluded`, then the file's
 * own keys); undefined when a file is
 * outside the reader's subset, cannot be read, or the includes are not a name or a list of names or
 * form a cycle (the loader words those).
 */
function writtenConfig(file: string, stack: readonly string[]): WrittenConfig | undefined {
  if (stack.includes(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const spans = new Map<string, string>();
  const own = readTopKeys(text, INCLUDE, spans);
  if (own === undefined) return undefined;
  const values: Record<string, string> = {};
  const files = [file];
  if ('include' in own) {
    const include = own.include;
    const names = Array.isArray(include) ? include : [include];
    for (const name of names) {
      if (typeof name !== 'string') return undefined;
      const included = writtenConfig(resolveBeside(file, name), [...stack, file]);
      if (!included) return undefined;
      inheritIncluded(values, included.values);
      for (const read of included.files) if (!files.includes(read)) files.push(read);
    }
  }
  for (const [key, span] of spans) if (key !== 'include') values[key] = span;
  return { values, files };
}

/** The comparison of two YAML configs as written, when it decides every key; undefined otherwise. */
function compareWritten(used: string, replaced: string): (Comparison & { files: string[] }) | undefined {
  const left = writtenConfig(path.resolve(used), []);
  const right = left && writtenConfig(path.resolve(replaced), []);
  if (!left || !right) return undefined;
  // In the order the loader's comparison lists them: the replaced config's keys, then the other's.
  const keys = [...new Set([...Object.keys(right.values), ...Object.keys(left.values)])];
  const differing: string[] = [];
  for (const key of keys) {
    const inLeft = key in left.values;
    const inRight = key in right.values;
    if (inLeft && inRight) {
      if (left.values[key] !== right.values[key]) return undefined;
    } else differing.push(key);
  }
  return {
    sameConfig: differing.length === 0,
    differingKeys: differing,
    files: [...left.files, ...right.files],
  };
}

/**
 * Whether two definitions of one name are the same: YAML by merged config, other files byte for byte;
 * with every file either read (includes too), for the cache.
 */
export function compareConfigs(used: IndexEntry, replaced: IndexEntry): Comparison & { files: string[] } {
  const files = [used.path as string, replaced.path as string];
  try {
    if (used.format === 'yaml' && replaced.format === 'yaml') {
      const written = compareWritten(files[0], files[1]);
      if (written) return written;
      const [a, b] = [used, replaced].map((entry) => loadYamlSync(entry.path as string));
      const left = comparable(a.config) as Record<string, unknown>;
      const right = comparable(b.config) as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(right), ...Object.keys(left)])].filter(
        (key) => !isDeepStrictEqual(left[key], right[key]),
      );
      return { sameConfig: keys.length === 0, differingKeys: keys, files: [...a.files, ...b.files] };
    }
    const same = used.format === replaced.format && readFileSync(files[0]).equals(readFileSync(files[1]));
    return { sameConfig: same, differingKeys: [], files };
  } catch {
    // A file that cannot be read again is reported as different: never silently the same.
    return { sameConfig: false, differingKeys: [], files: [] };
  }
}
