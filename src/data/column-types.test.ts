/**
 * Numbers keep the type Python gives them (issue 28 D1): each file is read by readDataFile and its rows are
 * printed with Python's repr, the form a template's `{{ doc }}` and a utils.py's `str(doc[...])` print.
 * The expected reprs follow the documented behaviour of what lm-eval reads data through (pyarrow is not
 * installable here, so it cannot be run):
 * - JSON / JSON lines, Arrow's JSON reader (arrow.apache.org/docs/python/json.html, "Automatic Type
 *   Inference"): "JSON numbers convert to int64, falling back to float64 if a non-integer is encountered";
 *   "JSON null values convert to the null type, but can fall back to any other type"; a column's type
 *   holds for every row, nested lists and structs alike; columns missing from a row are null. Fields whose
 *   kinds cannot be unified are kept as datasets.Json (datasets ≥ 4.7, packaged_modules/json/json.py
 *   `on_mixed_types="use_json"`: values as json.loads gives them).
 * - CSV, pandas.read_csv (its default na_values; an int column with a missing value is float64) and then
 *   `pa.Table.from_pandas` (datasets packaged_modules/csv).
 * - parquet: the file's physical types (DOUBLE is a Python float).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeParquet } from '../../test/support/parquet.js';
import { pythonRepr } from '../python/semantics/literal.js';
import { clearDataCache, readDataFile } from './readers.js';

async function read(name: string, content: string | Uint8Array, format: 'json' | 'csv' | 'parquet') {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'assay-column-types-'));
  const file = path.join(dir, name);
  await writeFile(file, content);
  clearDataCache();
  return (await readDataFile(file, format)).map((row) => pythonRepr(row));
}

describe('JSON data as Arrow types it', () => {
  it('keeps a float written as 18.0 a float, and an int an int', async () => {
    expect(await read('a.jsonl', '{"x": 18.0, "n": 3}\n{"x": 2.5, "n": 4}\n', 'json')).toEqual([
      "{'x': 18.0, 'n': 3}",
      "{'x': 2.5, 'n': 4}",
    ]);
  });

  it('makes every value of a column that holds a float a float, in any row', async () => {
    expect(await read('b.jsonl', '{"x": 3}\n{"x": null}\n{"x": 0.5}\n{"x": 7}\n', 'json')).toEqual([
      "{'x': 3.0}",
      "{'x': None}",
      "{'x': 0.5}",
      "{'x': 7.0}",
    ]);
  });

  it('unifies list items and struct fields over all rows, as their columns', async () => {
    const rows = await read(
      'c.jsonl',
      '{"l": [1, 2], "s": {"a": 1, "b": "u"}}\n{"l": [0.5], "s": {"b": "v", "a": 2.5}}\n',
      'json',
    );
    expect(rows).toEqual([
      "{'l': [1.0, 2.0], 's': {'a': 1.0, 'b': 'u'}}",
      "{'l': [0.5], 's': {'a': 2.5, 'b': 'v'}}",
    ]);
  });

  it('gives every row every column, in first-seen order, None where a row lacks one', async () => {
    expect(await read('d.jsonl', '{"a": 1}\n{"b": 2.0, "a": 2}\n', 'json')).toEqual([
      "{'a': 1, 'b': None}",
      "{'a': 2, 'b': 2.0}",
    ]);
  });

  it('keeps a field Arrow cannot unify (number and string; nested dicts with other keys) as written', async () => {
    expect(
      await read(
        'e.jsonl',
        '{"m": 1, "d": {"p": 1}}\n{"m": "one", "d": {"q": 2.0}}\n{"m": 2.0, "d": null}\n',
        'json',
      ),
    ).toEqual(["{'m': 1, 'd': {'p': 1}}", "{'m': 'one', 'd': {'q': 2.0}}", "{'m': 2.0, 'd': None}"]);
  });

  it('types a top-level array of rows as JSON lines (datasets converts it to JSON lines)', async () => {
    expect(await read('f.json', '[{"x": 1}, {"x": 1.5}]', 'json')).toEqual(["{'x': 1.0}", "{'x': 1.5}"]);
  });

  it('leaves text that looks like a number alone', async () => {
    expect(await read('g.jsonl', '{"q": "is 1.0 = 1e0?", "x": 1}\n', 'json')).toEqual([
      "{'q': 'is 1.0 = 1e0?', 'x': 1}",
    ]);
  });

  it('reports an invalid line with its own text, not the rewritten one', async () => {
    await expect(read('h.jsonl', '{"x": 1.0}\n{"x": 1.0,}\n', 'json')).rejects.toThrow(
      /^invalid JSON on line 2: /,
    );
  });
});

describe('CSV data as pandas and Arrow type it', () => {
  it('makes an int column with a missing value floats, and float columns floats', async () => {
    expect(await read('a.csv', 'n,m,f\n1,1,2\n,2,2.5\n3,3,NA\n', 'csv')).toEqual([
      "{'n': 1.0, 'm': 1, 'f': 2.0}",
      "{'n': None, 'm': 2, 'f': 2.5}",
      "{'n': 3.0, 'm': 3, 'f': None}",
    ]);
  });

  it("reads pandas' default missing-value spellings as None", async () => {
    expect(await read('b.csv', 't\nNA\nnull\nn/a\nword\n', 'csv')).toEqual([
      "{'t': None}",
      "{'t': None}",
      "{'t': None}",
      "{'t': 'word'}",
    ]);
  });
});

describe('CSV numbers as pandas parses them (red team)', () => {
  // Expected: pandas 3.0.6 + pyarrow 25.0.1 run on this file in a venv, as datasets' csv builder reads it:
  //   pa.Table.from_pandas(pd.read_csv(f), preserve_index=False).to_pylist()
  // → schema [int64, double, int64]: pandas' number parser skips blanks around a number and reads
  // inf / -inf / Infinity as floats, so these columns are numeric (a template prints 3.0 and inf, not 3).
  it('reads numbers with blanks around them as numbers, and inf/-inf/Infinity as floats', async () => {
    expect(await read('r.csv', 'a,b,c\n 5 ,inf,\t7\n6,-inf,8\n5 ,Infinity,9\n', 'csv')).toEqual([
      "{'a': 5, 'b': inf, 'c': 7}",
      "{'a': 6, 'b': -inf, 'c': 8}",
      "{'a': 5, 'b': inf, 'c': 9}",
    ]);
  });

  it('makes an int column a float column when it also holds inf', async () => {
    expect(await read('s.csv', 'f\ninf\n3\n', 'csv')).toEqual(["{'f': inf}", "{'f': 3.0}"]);
  });
});

describe('parquet data by its physical types', () => {
  it('keeps integral values of a DOUBLE column (and of a list of DOUBLE) floats', async () => {
    const file = writeParquet([
      { x: 0.5, l: [1.5, 2], n: 1 },
      { x: 3, l: [4], n: 2 },
    ]);
    expect(await read('a.parquet', file, 'parquet')).toEqual([
      "{'x': 0.5, 'l': [1.5, 2.0], 'n': 1}",
      "{'x': 3.0, 'l': [4.0], 'n': 2}",
    ]);
  });
});
