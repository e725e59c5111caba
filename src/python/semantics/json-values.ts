/**
 * Python's view of JSON values, for the `code_exec` metric's Python answers, which were compared in
 * Python before the comparison moved out of the sandbox: equality as that harness's `_assay_same`
 * (bool is not a number, ints equal floats by value, lists and dicts element-wise), and the text of
 * `json.dumps` for the messages. Hand-written: no library reproduces Python's float repr in JSON.
 */
import { pythonFloatRepr } from './format.js';
import { PythonFloat } from './literal.js';

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

/**
 * Whether `JSON.stringify` would write this value otherwise than Python's json.dumps: it holds a float
 * with an integral value (a PythonFloat, `18.0`), or a float below 1e-4 that Python writes with an
 * exponent (`1e-05`, where JS writes `0.00001`).
 */
export function needsPythonJson(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isInteger(value) && value !== 0 && Math.abs(value) < 1e-4;
  if (value === null || typeof value !== 'object') return false;
  if (value instanceof PythonFloat) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (needsPythonJson(item)) return true;
    return false;
  }
  for (const key in value) if (needsPythonJson((value as Record<string, unknown>)[key])) return true;
  return false;
}

function dumpNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) < 1e21 ? String(value) : pythonFloat(value);
}

/**
 * The JSON text Python's `json.dumps(value, ensure_ascii=False)` writes, in JSON.stringify's layout:
 * compact (`,` and `:`) without `indent`, one item a line with it (as `json.dumps(indent=2)`, which
 * lm-eval's doc_hash hashes). Floats as Python writes them (`18.0`, `1e-05`); otherwise as
 * JSON.stringify (a `toJSON` is called, undefined object values are left out).
 */
export function pythonJsonDumps(value: unknown, indent?: number): string {
  const step = indent === undefined ? '' : ' '.repeat(indent);
  const write = (current: unknown, depth: string): string | undefined => {
    if (current instanceof PythonFloat) return pythonFloat(current.value);
    if (
      current !== null &&
      typeof current === 'object' &&
      typeof (current as { toJSON?: unknown }).toJSON === 'function'
    )
      current = (current as { toJSON(): unknown }).toJSON();
    if (current === undefined || typeof current === 'function' || typeof current === 'symbol')
      return undefined;
    if (typeof current === 'number') return Number.isFinite(current) ? dumpNumber(current) : 'null';
    if (current === null || typeof current !== 'object') return JSON.stringify(current);
    const inner = depth + step;
    const open = step ? `\n${inner}` : '';
    const close = step ? `\n${depth}` : '';
    const separator = step ? `,\n${inner}` : ',';
    if (Array.isArray(current)) {
      if (current.length === 0) return '[]';
      const items = current.map((item) => write(item, inner) ?? 'null');
      return `[${open}${items.join(separator)}${close}]`;
    }
    const items: string[] = [];
    for (const [key, item] of Object.entries(current)) {
      const text = write(item, inner);
      if (text !== undefined) items.push(`${JSON.stringify(key)}:${step ? ' ' : ''}${text}`);
    }
    if (items.length === 0) return '{}';
    return `{${open}${items.join(separator)}${close}}`;
  };
  return write(value, '') ?? 'null';
}
