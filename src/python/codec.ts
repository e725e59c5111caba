/**
 * Values crossing the bridge to the Python worker (assay_worker/codec.py): JSON, plus objects tagged
 * `"$py"` for what JSON cannot carry. Python floats come back bit-identical (JSON numbers are their
 * shortest round-trip repr), tuples stay tuples both ways, and objects JSON cannot hold (sets, class
 * instances) stay in Python as handles that can be passed back by reference.
 */

import { parsePythonFloat } from './semantics/format.js';
import { isTuple, markTuple, PythonFloat } from './semantics/literal.js';

/**
 * Marks an array that came from (or must become) a Python tuple: the same mark the Python semantics use
 * (semantics/literal.ts), so a tuple prints as one and a tuple parsed from a template reaches Python as one.
 * Not enumerable: JSON and tests ignore it.
 */
export const pyTuple: <T extends unknown[]>(items: T) => T = markTuple;
export const isPyTuple: (value: unknown) => boolean = isTuple;

/**
 * A number Python must receive as a float even when it is integral (a log-likelihood of 0): the
 * semantics' integral float, so it also prints as Python's `0.0`.
 */
export const PyFloat = PythonFloat;
export type PyFloat = PythonFloat;

/**
 * A Python object kept in the worker. `text` is its `str()`, `json` what lm-eval's sample log writes for
 * it (`utils.handle_non_serializable`: a set as a list, anything else as its str).
 */
export class PyHandle {
  constructor(
    readonly id: number,
    readonly text: string,
    readonly json: unknown,
  ) {}

  toJSON(): unknown {
    return this.json;
  }

  toString(): string {
    return this.text;
  }
}

/** A value as JSON carries it: handles as their logged form, tuples as arrays. */
export function plainValue(value: unknown): unknown {
  return value instanceof PyHandle ? value.json : value;
}

/** Where an object the worker already holds sits: handle `h`, element `i`. */
export interface WorkerRef {
  h: number;
  i?: number;
}

function floatTag(value: number): unknown {
  if (Number.isNaN(value)) return { $py: 'float', v: 'nan' };
  if (value === Number.POSITIVE_INFINITY) return { $py: 'float', v: 'inf' };
  if (value === Number.NEGATIVE_INFINITY) return { $py: 'float', v: '-inf' };
  return { $py: 'float', v: value };
}

/** Whether plain JSON.stringify would lose something: a value that needs a tag, or an object sent by reference. */
function needsTags(value: unknown, refOf?: (value: object) => WorkerRef | undefined): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object') return false;
  if (value instanceof PyHandle || value instanceof PyFloat || isPyTuple(value) || refOf?.(value))
    return true;
  if (Array.isArray(value)) {
    for (const item of value) if (needsTags(item, refOf)) return true;
    return false;
  }
  for (const key in value) if (needsTags((value as Record<string, unknown>)[key], refOf)) return true;
  return false;
}

/**
 * JSON text for the worker. `refOf` names objects the worker holds (docs it produced), which are sent
 * as references instead of being serialized again. Plain data (the usual case for a split's docs) skips
 * the replacer: a walk to check is several times cheaper than calling it on every value.
 */
export function encodeValue(value: unknown, refOf?: (value: object) => WorkerRef | undefined): string {
  if (!needsTags(value, refOf)) return JSON.stringify(value);
  return JSON.stringify(value, function replacer(this: unknown, key: string, current: unknown) {
    // `current` has been through toJSON already; the original tells a handle from its logged form.
    const original = (this as Record<string, unknown>)[key];
    if (original instanceof PyHandle) return { $py: 'ref', h: original.id };
    if (original instanceof PyFloat) return floatTag(original.value);
    if (typeof current === 'number') return Number.isFinite(current) ? current : floatTag(current);
    if (typeof current === 'bigint') return { $py: 'int', v: current.toString() };
    if (current !== null && typeof current === 'object') {
      const ref = refOf?.(current);
      if (ref) return { $py: 'ref', ...ref };
      if (isPyTuple(current)) return { $py: 'tuple', v: Array.from(current as unknown[]) };
    }
    return current;
  });
}

function revive(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const tagged = value as { $py?: string; v?: unknown; id?: number; str?: string; json?: unknown };
  switch (tagged.$py) {
    case 'tuple':
      return pyTuple(tagged.v as unknown[]);
    case 'float':
      return typeof tagged.v === 'number' ? tagged.v : parsePythonFloat(String(tagged.v));
    case 'handle':
      return new PyHandle(tagged.id as number, tagged.str as string, tagged.json);
    default:
      return value;
  }
}

/** Parses a worker reply; the reviver runs only when a tag is present (plain docs parse at full speed). */
export function decodeValue(text: string): unknown {
  return text.includes('"$py"') ? JSON.parse(text, revive) : JSON.parse(text);
}
