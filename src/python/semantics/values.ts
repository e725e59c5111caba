/**
 * Python semantics over the JS value model of literal.ts: truthiness, equality, ordering, type
 * names, len(), iteration and slicing. Jinja2 evaluates template expressions with these semantics, so
 * the template interpreter and the few-shot sampler (which compares docs with `!=`) both need them.
 * Hand-written for Python parity: JS's `==`, `<`, truthiness and `.length` disagree with Python's
 * (`[] == []`, `'10' < '9'` by UTF-16 unit, `[]` truthy, astral characters counted twice).
 */
import { PythonTypeError } from './errors.js';
import { isTuple, markTuple, PythonFloat } from './literal.js';
import { characters, codePointLength } from './string.js';

export type PythonDict = Record<string, unknown> | Map<unknown, unknown>;

export function isDict(value: unknown): value is PythonDict {
  if (value instanceof Map) return true;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof PythonFloat)
    return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isNumber(value: unknown): value is number | PythonFloat {
  return typeof value === 'number' || value instanceof PythonFloat;
}

export function isFloat(value: unknown): boolean {
  return value instanceof PythonFloat || (typeof value === 'number' && !Number.isInteger(value));
}

export function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** A number (or bool, which is an int in Python) as a JS number. */
export function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value instanceof PythonFloat) return value.value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

export function typeName(value: unknown): string {
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (value === null || value === undefined) return 'NoneType';
  if (isFloat(value)) return 'float';
  if (typeof value === 'number') return 'int';
  if (Array.isArray(value)) return isTuple(value) ? 'tuple' : 'list';
  if (isDict(value)) return 'dict';
  return typeof value;
}

export function dictEntries(dict: PythonDict): Array<[unknown, unknown]> {
  return dict instanceof Map ? [...dict.entries()] : Object.entries(dict);
}

export function dictKeys(dict: PythonDict): unknown[] {
  return dict instanceof Map ? [...dict.keys()] : Object.keys(dict);
}

/** Python's `dict[key]`: the value, or `missing` where Python raises KeyError. Allocates nothing. */
export function dictLookup<M>(dict: PythonDict, key: unknown, missing: M): unknown | M {
  if (dict instanceof Map) {
    for (const [candidate, value] of dict) if (pythonEquals(candidate, key)) return value;
    return missing;
  }
  // A plain-object dict came from JSON, where every key is a string; Python would not find an int key.
  if (typeof key !== 'string') return missing;
  return Object.hasOwn(dict, key) ? dict[key] : missing;
}

const MISSING = Symbol('missing');

export function dictGet(dict: PythonDict, key: unknown): { found: boolean; value?: unknown } {
  const value = dictLookup(dict, key, MISSING);
  return value === MISSING ? { found: false } : { found: true, value };
}

export function truthy(value: unknown): boolean {
  if (typeof value === 'string') return value.length > 0;
  if (typeof value === 'number') return value !== 0;
  if (value instanceof PythonFloat) return value.value !== 0;
  if (typeof value === 'boolean') return value;
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map) return value.size > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return true;
}

/** Python `==`: numbers compare across int/float/bool, containers compare item by item. */
export function pythonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const left = numeric(a);
  const right = numeric(b);
  if (left !== undefined && right !== undefined) return left === right;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (Array.isArray(a) && Array.isArray(b)) {
    // A list never equals a tuple in Python.
    if (isTuple(a) !== isTuple(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pythonEquals(a[i], b[i])) return false;
    return true;
  }
  if (isDict(a) && isDict(b)) {
    const entries = dictEntries(a);
    if (entries.length !== dictKeys(b).length) return false;
    for (const [key, value] of entries) {
      const other = dictGet(b, key);
      if (!other.found || !pythonEquals(value, other.value)) return false;
    }
    return true;
  }
  return false;
}

/** Python ordering (`<`): numbers, strings by code point, sequences lexicographically. */
export function pythonCompare(a: unknown, b: unknown, operator: string): number {
  const left = numeric(a);
  const right = numeric(b);
  if (left !== undefined && right !== undefined) return left < right ? -1 : left > right ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (!pythonEquals(a[i], b[i])) return pythonCompare(a[i], b[i], operator);
    }
    return a.length - b.length;
  }
  throw new PythonTypeError(
    `'${operator}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`,
  );
}

function compareCodePoints(a: string, b: string): number {
  // JS compares UTF-16 units; Python compares code points. They differ only around surrogates.
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i].codePointAt(0) as number;
    const y = right[i].codePointAt(0) as number;
    if (x !== y) return x - y;
  }
  return left.length - right.length;
}

export function pythonLen(value: unknown): number {
  if (typeof value === 'string') return codePointLength(value);
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map) return value.size;
  if (isDict(value)) return Object.keys(value).length;
  throw new PythonTypeError(`object of type '${typeName(value)}' has no len()`);
}

/** `iter(value)` as a list: strings give characters, dicts give keys. */
export function pythonIterate(value: unknown): unknown[] {
  if (typeof value === 'string') return characters(value);
  if (Array.isArray(value)) return value;
  if (isDict(value)) return dictKeys(value);
  throw new PythonTypeError(`'${typeName(value)}' object is not iterable`);
}

/** `seq[start:stop:step]` with Python's clamping and negative indices. */
export function pythonSlice<T>(items: readonly T[], start?: number, stop?: number, step = 1): T[] {
  if (step === 0) throw new Error('slice step cannot be zero');
  const length = items.length;
  const clamp = (index: number, low: number, high: number) => {
    const value = index < 0 ? index + length : index;
    return Math.min(Math.max(value, low), high);
  };
  const result: T[] = [];
  if (step > 0) {
    const from = start === undefined ? 0 : clamp(start, 0, length);
    const to = stop === undefined ? length : clamp(stop, 0, length);
    for (let i = from; i < to; i += step) result.push(items[i]);
  } else {
    const from = start === undefined ? length - 1 : clamp(start, -1, length - 1);
    const to = stop === undefined ? -1 : clamp(stop, -1, length - 1);
    for (let i = from; i > to; i += step) result.push(items[i]);
  }
  return result;
}

/** Where `seq[index]` reads, with Python's negative indexes; undefined where Python raises IndexError. */
export function pythonPosition(length: number, index: number): number | undefined {
  const position = index < 0 ? index + length : index;
  return position >= 0 && position < length ? position : undefined;
}

/** `seq[index]` with negative indices; `undefined` when out of range (Jinja then tries an attribute). */
export function pythonIndex<T>(items: readonly T[], index: number): T | undefined {
  const position = pythonPosition(items.length, index);
  return position === undefined ? undefined : items[position];
}

export function asTuple<T>(items: T[]): T[] {
  return markTuple(items);
}
