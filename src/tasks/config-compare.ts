/**
 * Whether two definitions of one task name are the same config (overrides.ts decides which overrides
 * matter by it). Its own module: it loads the YAML loader, which a warm listing does not need.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { IndexEntry, TaskOverride } from './index-types.js';
import { DeferredFunction, loadYamlSync } from './yaml-loader.js';

/** A config with each `!function` as its name: the same reference written in two files compares equal. */
function comparable(value: unknown): unknown {
  if (value instanceof DeferredFunction) return `!function ${value.ref}`;
  if (Array.isArray(value)) return value.map(comparable);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, comparable(item)]));
  return value;
}

export type Comparison = Pick<TaskOverride, 'sameConfig' | 'differingKeys'>;

/**
 * Whether two definitions of one name are the same: YAML by merged config, other files byte for byte;
 * with every file either read (includes too), for the cache.
 */
export function compareConfigs(used: IndexEntry, replaced: IndexEntry): Comparison & { files: string[] } {
  const files = [used.path as string, replaced.path as string];
  try {
    if (used.format === 'yaml' && replaced.format === 'yaml') {
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
