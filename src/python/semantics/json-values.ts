/**
 * Python's view of JSON values, for the `code_exec` metric's Python answers, which were compared in
 * Python before the comparison moved out of the sandbox: equality as that harness's `_assay_same`
 * (bool is not a number, ints equal floats by value, lists and dicts element-wise), and the text of
 * `json.dumps` for the messages. Hand-written: no library reproduces Python's float repr in JSON.
 */
import { pythonFloatRepr } from './format.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function pythonSame(a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => pythonSame(item, b[index]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && pythonSame(a[key], b[key]))
    );
  }
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return a === b && typeof a === typeof b && !Array.isArray(a) && !isObject(a);
}

/** json.dumps of a float: its repr(), with JSON's spellings of the non-finite values. */
function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  return pythonFloatRepr(value);
}

function pythonString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** json.dumps(value) for a value that came from JSON: integral numbers as ints, as Python parses them. */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < 1e21 ? String(value) : pythonFloat(value);
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (isObject(value))
    return `{${Object.entries(value)
      .map(([key, item]) => `${pythonString(key)}: ${pythonJson(item)}`)
      .join(', ')}}`;
  return 'null';
}
