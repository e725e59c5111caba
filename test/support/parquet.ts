/**
 * Parquet fixtures for tests and benchmarks: rows → a parquet file (hyparquet-writer), with the schema
 * inferred the way `datasets` writes its columns (strings, int64, double, bool, lists, structs).
 *
 * Codecs: hyparquet-writer compresses SNAPPY itself and takes other compressors as functions. GZIP comes
 * from node:zlib; ZSTD from the reference zstd library compiled to WebAssembly (@bokuweb/zstd-wasm, a dev
 * dependency), since Node 20's zlib has no zstd.
 */
import zlib from 'node:zlib';
import { init as initZstd, compress as zstdCompressWasm } from '@bokuweb/zstd-wasm';
import { parquetWriteBuffer } from 'hyparquet-writer';

export type Codec = 'SNAPPY' | 'GZIP' | 'ZSTD';

type Row = Record<string, unknown>;
interface SchemaElement {
  name: string;
  type?: string;
  converted_type?: string;
  repetition_type?: string;
  num_children?: number;
}

function firstValue(values: unknown[]): unknown {
  return values.find(
    (value) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0),
  );
}

function elementsFor(name: string, values: unknown[]): SchemaElement[] {
  const sample = firstValue(values);
  if (Array.isArray(sample)) {
    const items = values.flatMap((value) => (Array.isArray(value) ? value : []));
    return [
      { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      ...elementsFor('element', items),
    ];
  }
  if (sample !== null && typeof sample === 'object') {
    const keys = Object.keys(sample as Row);
    return [
      { name, repetition_type: 'OPTIONAL', num_children: keys.length },
      ...keys.flatMap((key) =>
        elementsFor(
          key,
          values.map((value) => (value as Row | null)?.[key] ?? null),
        ),
      ),
    ];
  }
  if (typeof sample === 'boolean') return [{ name, type: 'BOOLEAN', repetition_type: 'OPTIONAL' }];
  if (typeof sample === 'number') {
    const integral = values.every(
      (value) => value === null || value === undefined || Number.isInteger(value),
    );
    return [{ name, type: integral ? 'INT64' : 'DOUBLE', repetition_type: 'OPTIONAL' }];
  }
  return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }];
}

/** INT64 columns take bigints. */
function toWritable(value: unknown, elements: SchemaElement[]): unknown {
  if (value === null || value === undefined) return null;
  const [head] = elements;
  if (head.converted_type === 'LIST')
    return (value as unknown[]).map((item) => toWritable(item, elements.slice(2)));
  if (head.num_children !== undefined) {
    const out: Row = {};
    let offset = 1;
    for (let child = 0; child < head.num_children; child++) {
      const size = subtreeSize(elements, offset);
      out[elements[offset].name] = toWritable(
        (value as Row)[elements[offset].name],
        elements.slice(offset, offset + size),
      );
      offset += size;
    }
    return out;
  }
  return head.type === 'INT64' ? BigInt(value as number) : value;
}

function subtreeSize(elements: SchemaElement[], start: number): number {
  let size = 1;
  for (let child = 0; child < (elements[start].num_children ?? 0); child++)
    size += subtreeSize(elements, start + size);
  return size;
}

await initZstd();

const compressors = {
  GZIP: (input: Uint8Array) => new Uint8Array(zlib.gzipSync(input)),
  ZSTD: (input: Uint8Array) => new Uint8Array(zstdCompressWasm(input, 3)),
};

/** zstd-compresses bytes as the ZSTD parquet codec does (exported for the codec test). */
export function zstdCompress(input: Uint8Array): Uint8Array {
  return compressors.ZSTD(input);
}

export function writeParquet(rows: Row[], codec: Codec = 'SNAPPY'): Uint8Array {
  if (rows.length === 0) throw new Error('writeParquet needs at least one row to infer a schema');
  const names = Object.keys(rows[0]);
  const perColumn = names.map((name) =>
    elementsFor(
      name,
      rows.map((row) => row[name] ?? null),
    ),
  );
  const schema = [{ name: 'root', num_children: names.length }, ...perColumn.flat()];
  const columnData = names.map((name, index) => ({
    name,
    data: rows.map((row) => toWritable(row[name], perColumn[index])),
  }));
  const buffer = parquetWriteBuffer({
    columnData: columnData as never,
    schema: schema as never,
    codec,
    compressors,
  });
  return new Uint8Array(buffer);
}
