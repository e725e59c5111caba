import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { caught } from '../../test/support/caught.js';
import { writeIn } from '../../test/support/helpers.js';
import { PythonFloat } from '../python/semantics/literal.js';
import { datasetFiles, loadSplit } from './local-dataset.js';
import { readDataFile } from './readers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-data-'));
});

const write = (name: string, content: string | Buffer) => writeIn(dir, name, content);

/**
 * A minimal parquet file (one row group, PLAIN encoding, uncompressed, required columns), written by
 * hand because no parquet writer is installed: hyparquet only reads. Thrift compact protocol.
 */
function tinyParquet(ids: bigint[], names: string[]): Buffer {
  const bytes: number[] = [];
  const varint = (value: bigint | number) => {
    let v = BigInt(value);
    while (v >= 0x80n) {
      bytes.push(Number((v & 0x7fn) | 0x80n));
      v >>= 7n;
    }
    bytes.push(Number(v));
  };
  const zigzag = (value: bigint | number) => {
    const v = BigInt(value);
    varint(v >= 0n ? v << 1n : (-v << 1n) - 1n);
  };
  type Field = [id: number, type: number, write: () => void];
  const struct = (fields: Field[]) => {
    let last = 0;
    for (const [id, type, writeValue] of fields) {
      bytes.push(((id - last) << 4) | type);
      last = id;
      writeValue();
    }
    bytes.push(0);
  };
  const I32 = 5;
  const I64 = 6;
  const BINARY = 8;
  const LIST = 9;
  const STRUCT = 12;
  const i32 = (id: number, value: number): Field => [id, I32, () => zigzag(value)];
  const i64 = (id: number, value: number): Field => [id, I64, () => zigzag(value)];
  const binary = (id: number, value: string): Field => [
    id,
    BINARY,
    () => {
      const encoded = Buffer.from(value, 'utf8');
      varint(encoded.length);
      bytes.push(...encoded);
    },
  ];
  const list = (id: number, type: number, items: Array<() => void>): Field => [
    id,
    LIST,
    () => {
      bytes.push((items.length << 4) | type);
      for (const item of items) item();
    },
  ];
  const structField = (id: number, fields: Field[]): Field => [id, STRUCT, () => struct(fields)];

  const out: Buffer[] = [Buffer.from('PAR1')];
  let offset = 4;
  const chunks: Array<{ type: number; name: string; offset: number; size: number }> = [];
  const columns: Array<{ type: number; name: string; data: Buffer }> = [
    {
      type: 2,
      name: 'id',
      data: Buffer.concat(ids.map((id) => Buffer.from(new BigInt64Array([id]).buffer))),
    },
    {
      type: 6,
      name: 'name',
      data: Buffer.concat(
        names.map((name) => {
          const encoded = Buffer.from(name, 'utf8');
          const length = Buffer.alloc(4);
          length.writeUInt32LE(encoded.length);
          return Buffer.concat([length, encoded]);
        }),
      ),
    },
  ];
  for (const column of columns) {
    bytes.length = 0;
    // PageHeader: DATA_PAGE, sizes, DataPageHeader(num_values, PLAIN, RLE, RLE).
    struct([
      i32(1, 0),
      i32(2, column.data.length),
      i32(3, column.data.length),
      structField(5, [i32(1, ids.length), i32(2, 0), i32(3, 3), i32(4, 3)]),
    ]);
    const page = Buffer.concat([Buffer.from(bytes), column.data]);
    chunks.push({ type: column.type, name: column.name, offset, size: page.length });
    out.push(page);
    offset += page.length;
  }
  bytes.length = 0;
  struct([
    i32(1, 1),
    list(2, STRUCT, [
      () => struct([binary(4, 'schema'), i32(5, columns.length)]),
      () => struct([i32(1, 2), i32(3, 0), binary(4, 'id')]),
      // converted_type UTF8 (0) makes the byte array a string.
      () => struct([i32(1, 6), i32(3, 0), binary(4, 'name'), i32(6, 0)]),
    ]),
    i64(3, ids.length),
    list(4, STRUCT, [
      () =>
        struct([
          list(
            1,
            STRUCT,
            chunks.map(
              (chunk) => () =>
                struct([
                  i64(2, chunk.offset),
                  structField(3, [
                    i32(1, chunk.type),
                    list(2, I32, [() => zigzag(0)]),
                    list(3, BINARY, [
                      () => {
                        varint(chunk.name.length);
                        bytes.push(...Buffer.from(chunk.name));
                      },
                    ]),
                    i32(4, 0),
                    i64(5, ids.length),
                    i64(6, chunk.size),
                    i64(7, chunk.size),
                    i64(9, chunk.offset),
                  ]),
                ]),
            ),
          ),
          i64(
            2,
            chunks.reduce((sum, chunk) => sum + chunk.size, 0),
          ),
          i64(3, ids.length),
        ]),
    ]),
  ]);
  const footer = Buffer.from(bytes);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(footer.length);
  out.push(footer, length, Buffer.from('PAR1'));
  return Buffer.concat(out);
}

describe('readDataFile', () => {
  it('reads JSON lines, a top-level array, rows under a field, and gzip', async () => {
    const lines = await write('a.jsonl', '{"q": 1}\n\n{"q": 2}\n');
    const array = await write('b.json', '[{"q": 1}, {"q": 2}]');
    const field = await write('c.json', '{"version": 1, "data": [{"q": 1}, {"q": 2}]}');
    const gzipped = await write('d.jsonl.gz', gzipSync('{"q": 1}\n{"q": 2}\n'));
    const expected = [{ q: 1 }, { q: 2 }];
    expect(await readDataFile(lines, 'json')).toEqual(expected);
    expect(await readDataFile(array, 'json')).toEqual(expected);
    expect(await readDataFile(field, 'json', { field: 'data' })).toEqual(expected);
    expect(await readDataFile(gzipped, 'json')).toEqual(expected);
  });

  it('reports a bad JSON line with its line number', async () => {
    const file = await write('bad.jsonl', '{"q": 1}\n{"q": \n');
    const error = await caught(readDataFile(file, 'json'));
    expect(error.code).toBe('bad_data');
    expect(error.location).toEqual({ file, line: 2 });
    expect(error.message).toMatch(/^invalid JSON on line 2: /);
  });

  it('stops at data that is not UTF-8 with the file and byte offset, in JSON, gzip and CSV (never U+FFFD)', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('{"q": "ok"}\n{"q": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}\n'),
    ]);
    const json = await write('latin1.jsonl', latin1);
    const jsonError = await caught(readDataFile(json, 'json'));
    expect(jsonError.code).toBe('bad_data');
    expect(jsonError.location).toEqual({ file: json, line: 2 });
    expect(jsonError.message).toMatch(/^not UTF-8: byte offset 22 \(line 2\)/);
    const gz = await write('latin1.jsonl.gz', gzipSync(latin1));
    expect((await caught(readDataFile(gz, 'json'))).message).toMatch(/^not UTF-8: byte offset 22 /);
    const csv = await write(
      'latin1.csv',
      Buffer.concat([Buffer.from('q\nna'), Buffer.from([0xef]), Buffer.from('ve\n')]),
    );
    const csvError = await caught(readDataFile(csv, 'csv'));
    expect(csvError.location).toEqual({ file: csv, line: 2 });
    expect(csvError.message).toMatch(/^not UTF-8: byte offset 4 \(line 2\)/);
  });

  it('types CSV columns as pandas does: whole-column ints, floats, booleans; empty cells are null', async () => {
    const file = await write('d.csv', 'id,score,flag,text,mixed\n1,0.5,True,"a, b",1\n2,3,False,,x\n');
    expect(await readDataFile(file, 'csv')).toEqual([
      { id: 1, score: 0.5, flag: true, text: 'a, b', mixed: '1' },
      // A float column: pandas (and so Python) has 3.0, which only a PythonFloat can say.
      { id: 2, score: new PythonFloat(3), flag: false, text: null, mixed: 'x' },
    ]);
  });

  it('reads parquet with INT64 as numbers and UTF8 as strings', async () => {
    const file = await write('e.parquet', tinyParquet([1n, 2n, 3n], ['alpha', 'beta', 'gamma']));
    expect(await readDataFile(file, 'parquet')).toEqual([
      { id: 1, name: 'alpha' },
      { id: 2, name: 'beta' },
      { id: 3, name: 'gamma' },
    ]);
  });

  it('reports a corrupt parquet file as bad_data', async () => {
    const file = await write('bad.parquet', 'not parquet at all');
    const error = await caught(readDataFile(file, 'parquet'));
    expect(error.code).toBe('bad_data');
    expect(error.message).toMatch(/^cannot read parquet file bad\.parquet: /);
  });
});

describe('datasetFiles / loadSplit', () => {
  it('maps data_files given as a string to the train split, resolved beside the task file', async () => {
    await write('tasks/data/rows.jsonl', '{"q": 1}\n');
    const taskFile = path.join(dir, 'tasks', 't.yaml');
    const config = { dataset_path: 'json', dataset_kwargs: { data_files: 'data/rows.jsonl' } };
    expect(await datasetFiles(config, taskFile)).toEqual({
      format: 'json',
      splits: { train: [path.join(dir, 'tasks', 'data', 'rows.jsonl')] },
      field: undefined,
    });
    expect(await loadSplit(config, taskFile, 'train')).toEqual([{ q: 1 }]);
  });

  it('reads split dicts with lists and globs, in order, across formats', async () => {
    await write('csv/test-00.csv', 'q\n1\n');
    await write('csv/test-01.csv', 'q\n2\n');
    await write('csv/dev.csv', 'q\n9\n');
    const taskFile = path.join(dir, 't.yaml');
    const config = {
      dataset_path: 'csv',
      dataset_kwargs: { data_files: { test: ['csv/test-*.csv'], dev: 'csv/dev.csv' } },
    };
    expect(await loadSplit(config, taskFile, 'test')).toEqual([{ q: 1 }, { q: 2 }]);
    expect(await loadSplit(config, taskFile, 'dev')).toEqual([{ q: 9 }]);
    const error = await caught(loadSplit(config, taskFile, 'validation'));
    expect(error.message).toBe('split "validation" not found in dataset csv; available splits: test, dev');
  });

  it('falls back to the current directory, and names both places when a file is missing', async () => {
    const taskFile = path.join(dir, 'tasks', 't.yaml');
    const cwd = process.cwd();
    const error = await caught(
      datasetFiles({ dataset_path: 'json', dataset_kwargs: { data_files: 'nope.jsonl' } }, taskFile),
    );
    expect(error.code).toBe('missing_data_file');
    expect(error.message).toBe(
      `data file "nope.jsonl" not found (looked in ${path.join(dir, 'tasks')} and ${cwd})`,
    );
    expect(error.location).toEqual({ file: taskFile, field: 'dataset_kwargs.data_files' });

    await write('cwd/rows.jsonl', '{"q": "from cwd"}\n');
    process.chdir(path.join(dir, 'cwd'));
    try {
      const config = { dataset_path: 'json', dataset_kwargs: { data_files: { test: 'rows.jsonl' } } };
      expect(await loadSplit(config, taskFile, 'test')).toEqual([{ q: 'from cwd' }]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('reads a dataset_path that is a local file or a directory with split-named files', async () => {
    await write('ds/train.jsonl', '{"q": "t"}\n');
    await write('ds/data/test-00000-of-00001.parquet', tinyParquet([7n], ['x']));
    await write('ds/validation.csv', 'q\nv\n');
    await write('ds/README.md', '# not data\n');
    const taskFile = path.join(dir, 't.yaml');
    const files = await datasetFiles({ dataset_path: 'ds' }, taskFile);
    expect(files.splits).toEqual({
      test: [path.join(dir, 'ds', 'data', 'test-00000-of-00001.parquet')],
      train: [path.join(dir, 'ds', 'train.jsonl')],
      validation: [path.join(dir, 'ds', 'validation.csv')],
    });
    expect(await loadSplit({ dataset_path: 'ds' }, taskFile, 'test')).toEqual([{ id: 7, name: 'x' }]);
    expect(await loadSplit({ dataset_path: 'ds' }, taskFile, 'validation')).toEqual([{ q: 'v' }]);
    expect(await loadSplit({ dataset_path: 'ds/train.jsonl' }, taskFile, 'train')).toEqual([{ q: 't' }]);
  });

  it('says a Hub dataset name is not a local path (Hub data goes through loadSplit)', async () => {
    const taskFile = path.join(dir, 't.yaml');
    const error = await caught(datasetFiles({ dataset_path: 'allenai/ai2_arc' }, taskFile));
    expect(error.code).toBe('missing_data_file');
    expect(error.message).toMatch(
      /^dataset_path "allenai\/ai2_arc" is not a local file or directory \(looked for /,
    );
    expect(error.message).toMatch(
      /; as a Hugging Face Hub dataset id it is read by loadSplit, not listed here$/,
    );
  });

  it('needs data_files for a packaged builder', async () => {
    const error = await caught(datasetFiles({ dataset_path: 'parquet' }, path.join(dir, 't.yaml')));
    expect(error.message).toBe(
      'dataset_path "parquet" needs dataset_kwargs.data_files (the local files to read)',
    );
  });
});
