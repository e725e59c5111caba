/**
 * The contract of readTopKeys (src/tasks/yaml-keys.ts), as one check: when it answers, js-yaml (as the
 * YAML loader reads files) reads the text without error, to a mapping whose kept keys have the same values.
 */
import { isDeepStrictEqual } from 'node:util';
import { INDEX_KEYS as ENTRY_KEYS } from '../../src/tasks/root-scan.js';
import { readTopKeys } from '../../src/tasks/yaml-keys.js';
import { DeferredFunction, parseYamlText } from '../../src/tasks/yaml-loader.js';

/** What the index asks the reader for: its keys, and `include`, which the loader follows (yaml-loader.ts). */
export const INDEX_KEYS: ReadonlySet<string> = new Set([...ENTRY_KEYS, 'include']);

/** 'refused' (the reader did not answer), 'agrees', or what differs from js-yaml. */
export function checkTopKeys(
  text: string,
  keys: ReadonlySet<string> = INDEX_KEYS,
): 'refused' | 'agrees' | string {
  const fast = readTopKeys(text, keys);
  if (fast === undefined) return 'refused';
  let full: unknown;
  try {
    full = parseYamlText(text, 'mutant.yaml');
  } catch (error) {
    return `answered, but js-yaml refuses the text: ${(error as Error).message.split('\n')[0]}`;
  }
  if (full === null || typeof full !== 'object' || Array.isArray(full) || full instanceof DeferredFunction)
    return 'answered, but js-yaml reads no mapping';
  const mapping = full as Record<string, unknown>;
  for (const key of keys) {
    if (key in mapping !== key in fast)
      return `key ${key}: present ${key in fast}, js-yaml ${key in mapping}`;
    if (!isDeepStrictEqual(mapping[key], fast[key]))
      return `key ${key}: ${JSON.stringify(fast[key])}, js-yaml ${JSON.stringify(mapping[key])}`;
  }
  for (const key of Object.keys(fast)) if (!keys.has(key)) return `key ${key} answered but not asked for`;
  return 'agrees';
}
