/**
 * Rows of a JSON data file as Hugging Face `datasets` (≥ 4.7) hands them to lm-eval: read through Arrow,
 * which gives every column one type. The Arrow JSON reader infers a type per column and per nested field
 * (pyarrow.json: "Columns are inferred as int64 if all values are integers, double if any value is a
 * floating-point number; null values do not change the inferred type") and unifies it over the rows, so:
 *
 * - an int in a column (or a list, or a struct field) that also holds floats becomes a float (`3` → `3.0`);
 * - every row gets every top-level column, in the order the columns first appear, and a row without one
 *   gets None;
 * - a nested dict whose keys differ between rows, an empty nested dict, and a field whose values are of
 *   kinds Arrow cannot unify (a number and a string, a bool and a number, a list and a scalar) are kept as
 *   `datasets.Json`: each value as Python's json module parses it (datasets' on_mixed_types="use_json";
 *   datasets before 4.7 refuse such a file instead);
 * - a nested dict with the same keys in another order is given the first order (Arrow's struct fields).
 *
 * Numbers arrive from `parseJsonKeepingFloats`: a float written as `18.0` is already a PythonFloat.
 */
import { PythonFloat } from '../python/semantics/literal.js';
import type { Doc } from '../task-config/doc.js';

type Kind =
  | { type: 'null' | 'bool' | 'int' | 'float' | 'string' | 'json' }
  | { type: 'list'; item: Kind }
  | { type: 'struct'; fields: Map<string, Kind> };

const NULL: Kind = { type: 'null' };
const BOOL: Kind = { type: 'bool' };
const INT: Kind = { type: 'int' };
const FLOAT: Kind = { type: 'float' };
const STRING: Kind = { type: 'string' };
const JSON_KIND: Kind = { type: 'json' };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof PythonFloat)
  );
}

/** The kind of one value, merged into `known` (the kind of the values seen so far at the same place). */
function merge(known: Kind, value: unknown): Kind {
  if (known.type === 'json' || value === null || value === undefined) return known;
  if (typeof value === 'number') {
    const kind = Number.isInteger(value) ? INT : FLOAT;
    if (known.type === 'null' || known.type === kind.type) return kind;
    if ((known.type === 'int' || known.type === 'float') && kind.type !== known.type) return FLOAT;
    return JSON_KIND;
  }
  if (value instanceof PythonFloat) {
    return known.type === 'null' || known.type === 'int' || known.type === 'float' ? FLOAT : JSON_KIND;
  }
  if (typeof value === 'string') return known.type === 'null' || known.type === 'string' ? STRING : JSON_KIND;
  if (typeof value === 'boolean') return known.type === 'null' || known.type === 'bool' ? BOOL : JSON_KIND;
  if (Array.isArray(value)) {
    if (known.type !== 'null' && known.type !== 'list') return JSON_KIND;
    let item = known.type === 'list' ? known.item : NULL;
    for (const element of value) item = merge(item, element);
    return item === (known as { item?: Kind }).item ? known : { type: 'list', item };
  }
  if (isPlainObject(value)) {
    if (known.type === 'null') {
      const keys = Object.keys(value);
      if (keys.length === 0) return JSON_KIND;
      const fields = new Map<string, Kind>();
      for (const key of keys) fields.set(key, merge(NULL, value[key]));
      return { type: 'struct', fields };
    }
    if (known.type !== 'struct') return JSON_KIND;
    // A nested dict with other keys than the first one seen: datasets keeps the field as Json.
    let count = 0;
    for (const key in value) {
      if (!known.fields.has(key)) return JSON_KIND;
      count++;
    }
    if (count !== known.fields.size) return JSON_KIND;
    for (const [key, kind] of known.fields) {
      const merged = merge(kind, value[key]);
      if (merged !== kind) known.fields.set(key, merged);
    }
    return known;
  }
  return JSON_KIND;
}

/** Whether values of this kind need rewriting: a float somewhere (ints to floats) or a struct (key order). */
function rewrites(kind: Kind): boolean {
  if (kind.type === 'float' || kind.type === 'struct') return true;
  return kind.type === 'list' && rewrites(kind.item);
}

function convert(value: unknown, kind: Kind): unknown {
  if (value === null || value === undefined) return null;
  switch (kind.type) {
    case 'float':
      return typeof value === 'number' && Number.isInteger(value) ? new PythonFloat(value) : value;
    case 'list':
      return rewrites(kind.item) ? (value as unknown[]).map((item) => convert(item, kind.item)) : value;
    case 'struct': {
      const record = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, field] of kind.fields) out[key] = convert(record[key], field);
      return out;
    }
    default:
      return value;
  }
}

/**
 * The rows as datasets gives them (see the file header). Rows fresh from a parse, which may be changed in
 * place: when every row has the same keys in the same order, the same array is returned.
 */
export function arrowTypedRows(rows: Doc[]): Doc[] {
  const columns = new Map<string, Kind>();
  let sameKeys = true;
  let firstKeys: string[] | undefined;
  for (const row of rows) {
    const keys = Object.keys(row);
    if (firstKeys === undefined) firstKeys = keys;
    else if (sameKeys && (keys.length !== firstKeys.length || keys.some((key, i) => key !== firstKeys?.[i])))
      sameKeys = false;
    for (const key of keys) {
      const known = columns.get(key) ?? NULL;
      const merged = merge(known, row[key]);
      if (merged !== known || !columns.has(key)) columns.set(key, merged);
    }
  }
  const changing = [...columns].filter(([, kind]) => rewrites(kind));
  if (sameKeys) {
    // Every row has the columns in the same order: the rows (fresh from the parse) change in place.
    for (const row of rows) for (const [key, kind] of changing) row[key] = convert(row[key], kind);
    return rows;
  }
  return rows.map((row) => {
    const out: Doc = {};
    for (const [key, kind] of columns) out[key] = convert(row[key], kind);
    return out;
  });
}
