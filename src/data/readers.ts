/**
 * Readers for local data files, producing rows the way Hugging Face `datasets` would: JSON (JSON lines,
 * a top-level array, or an object with the rows under `field`), CSV (with pandas-like column types) and
 * parquet (hyparquet). Files are read once per process.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AssayError } from '../errors.js';
import { parseJsonKeepingFloats, unwrapFloats, wrapFloatTokens } from '../python/semantics/json-floats.js';
import { PythonFloat } from '../python/semantics/literal.js';
import type { Doc } from '../task-config/doc.js';
import { arrowTypedRows } from './arrow-columns.js';
import { decodeUtf8 } from './utf8.js';

export type DataFormat = 'json' | 'csv' | 'parquet';

export interface ReadOptions {
  /** HF json loader's `field`: the key of a top-level object that holds the rows. */
  field?: string;
}

const cache = new Map<string, Promise<Doc[]>>();

export function clearDataCache(): void {
  cache.clear();
}

/** The format implied by a file name, as HF datasets infers its packaged builder. */
export function formatOfFile(file: string): DataFormat | undefined {
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.jsonl') || name.endsWith('.json') || name.endsWith('.ndjson')) return 'json';
  if (name.endsWith('.csv') || name.endsWith('.tsv')) return 'csv';
  if (name.endsWith('.parquet')) return 'parquet';
  return undefined;
}

/**
 * Reads one file. The cache key includes mtime and size so that a long-lived process sees edits.
 * Callers get the cached array itself: treat docs as read-only.
 */
export async function readDataFile(
  file: string,
  format: DataFormat,
  options: ReadOptions = {},
): Promise<Doc[]> {
  const info = await stat(file);
  const key = `${format}\0${options.field ?? ''}\0${file}\0${info.mtimeMs}\0${info.size}`;
  let rows = cache.get(key);
  if (!rows) {
    rows = format === 'json' ? readJson(file, options) : format === 'csv' ? readCsv(file) : readParquet(file);
    cache.set(key, rows);
    rows.catch(() => cache.delete(key));
  }
  return rows;
}

/** Text of a data file; `.gz` files are decompressed, as HF datasets does. Bytes must be UTF-8. */
async function readText(file: string): Promise<string> {
  const bytes = await readFile(file);
  return decodeUtf8(file.toLowerCase().endsWith('.gz') ? gunzipSync(bytes) : bytes, file);
}

function badData(file: string, message: string, line?: number, cause?: unknown): AssayError {
  return new AssayError('bad_data', message, { location: { file, line }, cause });
}

/** JSON rows with datasets' column types: ints and floats as written, then unified per column (arrow-columns.ts). */
async function readJson(file: string, options: ReadOptions): Promise<Doc[]> {
  return arrowTypedRows(await readJsonRows(file, options));
}

async function readJsonRows(file: string, options: ReadOptions): Promise<Doc[]> {
  const text = await readText(file);
  const start = text.trimStart()[0];
  // A whole-file JSON document is either an array of rows or an object holding them under `field`.
  if (start === '[' || (start === '{' && options.field !== undefined)) {
    let value: unknown;
    try {
      value = parseJsonKeepingFloats(text);
    } catch (error) {
      if (start === '[') throw badData(file, `invalid JSON: ${(error as Error).message}`, undefined, error);
      value = undefined;
    }
    if (value !== undefined) {
      const rows =
        options.field !== undefined && !Array.isArray(value) ? (value as Doc)[options.field] : value;
      if (!Array.isArray(rows)) {
        throw badData(
          file,
          options.field ? `field "${options.field}" is not a list of rows` : 'expected a list of rows',
        );
      }
      return rows.map((row, index) => checkRow(file, row, index + 1));
    }
  }
  // JSON lines: one object per line, blank lines ignored (as pyarrow's JSON reader does). Float tokens
  // are wrapped in one scan of the whole text (json-floats.ts); a line's error is its text as written.
  const rows: Doc[] = [];
  const wrapped = wrapFloatTokens(text);
  const lines = (wrapped?.text ?? text).split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const original = wrapped ? text.split('\n')[index].trim() : line;
      const reason = (() => {
        try {
          JSON.parse(original);
          return (error as Error).message;
        } catch (own) {
          return (own as Error).message;
        }
      })();
      throw badData(file, `invalid JSON on line ${index + 1}: ${reason}`, index + 1, error);
    }
    if (wrapped && line.includes(wrapped.marker)) value = unwrapFloats(value, wrapped.key);
    if (options.field !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const nested = (value as Doc)[options.field];
      if (Array.isArray(nested)) {
        for (const [position, row] of nested.entries()) rows.push(checkRow(file, row, position + 1));
        continue;
      }
    }
    rows.push(checkRow(file, value, index + 1, index + 1));
  }
  return rows;
}

function checkRow(file: string, row: unknown, position: number, line?: number): Doc {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) {
    throw badData(file, `row ${position} is not a JSON object`, line);
  }
  return row as Doc;
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER = /^[-+]?\d+$/;
/** pandas' parser reads these (any case) as infinities: `inf`, `Infinity`, signed or not (parsers.pyx). */
const INFINITY = /^([-+]?)(inf|infinity)$/i;
/** pandas' number parsers skip ASCII blanks around a number (str_to_int64, xstrtod); a string keeps them. */
const BLANKS = /^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g;
const numeric = (value: string) => value.replace(BLANKS, '');

async function readCsv(file: string): Promise<Doc[]> {
  // Loaded on the first CSV file, not at start-up (10 modules a JSON or parquet task never uses).
  const [text, { parse: parseCsv }] = await Promise.all([readText(file), import('csv-parse/sync')]);
  let records: Record<string, string>[];
  try {
    records = parseCsv(text, {
      columns: true,
      delimiter: /\.tsv(\.gz)?$/i.test(file) ? '\t' : ',',
      skip_empty_lines: true,
      bom: true,
      relax_column_count: false,
    });
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw badData(file, `invalid CSV: ${(error as Error).message}`, line, error);
  }
  if (records.length === 0) return [];
  // pandas (behind HF's csv loader) types each column as a whole, and datasets takes the frame through
  // Arrow: all-integer columns become ints, but an integer column with a missing value is float64 in
  // pandas, so every value is a float (`3` → `3.0`); all-numeric columns are floats; True/False columns
  // booleans. pandas' default missing-value spellings (`NA`, `null`, `nan`, the empty cell, …) are None.
  const columns = Object.keys(records[0]);
  const converters = new Map<string, (value: string) => unknown>();
  for (const column of columns) {
    const all = records.map((record) => record[column]);
    const values = all.filter((value) => !CSV_MISSING.has(value));
    if (values.length === 0) continue;
    const missing = values.length < all.length;
    if (values.every((value) => INTEGER.test(numeric(value))))
      converters.set(column, missing ? csvFloat : (value) => Number.parseInt(numeric(value), 10));
    else if (values.every((value) => NUMBER.test(numeric(value)) || INFINITY.test(value)))
      converters.set(column, csvFloat);
    else if (values.every((value) => CSV_TRUE.has(value) || CSV_FALSE.has(value))) {
      converters.set(column, (value) => CSV_TRUE.has(value));
    }
  }
  return records.map((record) => {
    const row: Doc = {};
    for (const column of columns) {
      const value = record[column];
      const convert = converters.get(column);
      row[column] = CSV_MISSING.has(value) ? null : convert ? convert(value) : value;
    }
    return row;
  });
}

/** pandas.read_csv's default na_values (keep_default_na=True). */
const CSV_MISSING = new Set([
  '',
  '#N/A',
  '#N/A N/A',
  '#NA',
  '-1.#IND',
  '-1.#QNAN',
  '-NaN',
  '-nan',
  '1.#IND',
  '1.#QNAN',
  '<NA>',
  'N/A',
  'NA',
  'NULL',
  'NaN',
  'None',
  'n/a',
  'nan',
  'null',
]);
const CSV_TRUE = new Set(['True', 'TRUE', 'true']);
const CSV_FALSE = new Set(['False', 'FALSE', 'false']);

/** A value of a float64 column: a Python float, integral or not. */
function csvFloat(value: string): number | PythonFloat {
  const infinity = INFINITY.exec(value);
  if (infinity) return infinity[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  const number = Number(numeric(value));
  return Number.isInteger(number) ? new PythonFloat(number) : number;
}

async function readParquet(file: string): Promise<Doc[]> {
  try {
    // Loaded on the first parquet file, not at start-up (~70 ms of modules a JSON task never uses).
    const [
      { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema },
      { compressors },
    ] = await Promise.all([import('hyparquet'), import('hyparquet-compressors')]);
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer);
    const rows = await parquetReadObjects({ file: buffer, metadata, compressors });
    const columns = floatColumns(parquetSchema(metadata));
    return rows.map((row) => {
      const plain = toPlain(row) as Doc;
      if (columns) for (const [name, float] of columns) plain[name] = asPythonFloats(plain[name], float);
      return plain;
    });
  } catch (error) {
    if (error instanceof AssayError) throw error;
    throw badData(
      file,
      `cannot read parquet file ${path.basename(file)}: ${(error as Error).message}`,
      undefined,
      error,
    );
  }
}

/**
 * Where a parquet column holds FLOAT/DOUBLE values: 'float' for the column itself, or the list element or
 * struct fields that do. Python reads them as floats, so an integral one must stay `3.0`, which a JS
 * number cannot say.
 */
type FloatShape = 'float' | { list: FloatShape } | { fields: Map<string, FloatShape> };

interface SchemaNode {
  element: {
    name: string;
    type?: string;
    repetition_type?: string;
    converted_type?: string;
    logical_type?: { type: string };
  };
  children: SchemaNode[];
}

function floatShape(node: SchemaNode): FloatShape | undefined {
  const { element, children } = node;
  let shape: FloatShape | undefined;
  if (children.length === 0) {
    shape = element.type === 'DOUBLE' || element.type === 'FLOAT' ? 'float' : undefined;
  } else if (element.converted_type === 'LIST' || element.logical_type?.type === 'LIST') {
    // Three levels (`list` repeated group around `element`), or two (the repeated child is the element).
    const repeated = children[0];
    const item =
      repeated.children.length === 1 && repeated.element.repetition_type === 'REPEATED'
        ? repeated.children[0]
        : { ...repeated, element: { ...repeated.element, repetition_type: 'REQUIRED' } };
    const inner = floatShape(item);
    return inner === undefined ? undefined : { list: inner };
  } else if (element.converted_type === 'MAP' || element.logical_type?.type === 'MAP') {
    return undefined;
  } else {
    const fields = new Map<string, FloatShape>();
    for (const child of children) {
      const inner = floatShape(child);
      if (inner !== undefined) fields.set(child.element.name, inner);
    }
    shape = fields.size ? { fields } : undefined;
  }
  // A repeated field without a LIST annotation is a list of its values.
  return shape !== undefined && element.repetition_type === 'REPEATED' ? { list: shape } : shape;
}

/** The top-level columns with float values somewhere, or undefined when there are none. */
function floatColumns(root: SchemaNode): Map<string, FloatShape> | undefined {
  const columns = new Map<string, FloatShape>();
  for (const child of root.children) {
    const shape = floatShape(child);
    if (shape !== undefined) columns.set(child.element.name, shape);
  }
  return columns.size ? columns : undefined;
}

function asPythonFloats(value: unknown, shape: FloatShape): unknown {
  if (value === null || value === undefined) return value;
  if (shape === 'float')
    return typeof value === 'number' && Number.isInteger(value) ? new PythonFloat(value) : value;
  if ('list' in shape)
    return Array.isArray(value) ? value.map((item) => asPythonFloats(item, shape.list)) : value;
  if (typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  for (const [name, inner] of shape.fields)
    if (name in record) record[name] = asPythonFloats(record[name], inner);
  return record;
}

/**
 * hyparquet returns INT64 columns as bigint, which neither JSON nor Jinja handle; convert them to
 * numbers when exact (Python would hold them as int either way).
 */
function toPlain(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (Array.isArray(value)) return value.map(toPlain);
  if (
    value !== null &&
    typeof value === 'object' &&
    !(value instanceof Date) &&
    !(value instanceof Uint8Array)
  ) {
    const plain: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) plain[key] = toPlain(item);
    return plain;
  }
  return value;
}
