/**
 * Readers for local data files, producing rows the way Hugging Face `datasets` would: JSON (JSON lines,
 * a top-level array, or an object with the rows under `field`), CSV (with pandas-like column types) and
 * parquet (hyparquet). Files are read once per process.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AssayError } from '../errors.js';
import type { Doc } from '../task-config/doc.js';
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

async function readJson(file: string, options: ReadOptions): Promise<Doc[]> {
  const text = await readText(file);
  const start = text.trimStart()[0];
  // A whole-file JSON document is either an array of rows or an object holding them under `field`.
  if (start === '[' || (start === '{' && options.field !== undefined)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
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
  // JSON lines: one object per line, blank lines ignored (as pyarrow's JSON reader does).
  const rows: Doc[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw badData(file, `invalid JSON on line ${index + 1}: ${(error as Error).message}`, index + 1, error);
    }
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
  // pandas (behind HF's csv loader) types each column as a whole: all-integer columns become ints,
  // all-numeric columns floats, True/False columns booleans; empty cells are missing values.
  const columns = Object.keys(records[0]);
  const converters = new Map<string, (value: string) => unknown>();
  for (const column of columns) {
    const values = records.map((record) => record[column]).filter((value) => value !== '');
    if (values.length === 0) continue;
    if (values.every((value) => INTEGER.test(value)))
      converters.set(column, (value) => Number.parseInt(value, 10));
    else if (values.every((value) => NUMBER.test(value))) converters.set(column, Number);
    else if (values.every((value) => value === 'True' || value === 'False')) {
      converters.set(column, (value) => value === 'True');
    }
  }
  return records.map((record) => {
    const row: Doc = {};
    for (const column of columns) {
      const value = record[column];
      const convert = converters.get(column);
      row[column] = value === '' ? null : convert ? convert(value) : value;
    }
    return row;
  });
}

async function readParquet(file: string): Promise<Doc[]> {
  try {
    // Loaded on the first parquet file, not at start-up (~70 ms of modules a JSON task never uses).
    const [{ asyncBufferFromFile, parquetReadObjects }, { compressors }] = await Promise.all([
      import('hyparquet'),
      import('hyparquet-compressors'),
    ]);
    const buffer = await asyncBufferFromFile(file);
    const rows = await parquetReadObjects({ file: buffer, compressors });
    return rows.map((row) => toPlain(row) as Doc);
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
