/**
 * A GGUF v3 writer: header, typed metadata, tensor infos and aligned data, following
 * ggml's docs/gguf.md. It exists so that tests and the demo model never download weights: every
 * model we load is written here, byte for byte deterministic (no timestamps, insertion order kept).
 */

export type GgufScalarType =
  | 'uint8'
  | 'int8'
  | 'uint16'
  | 'int16'
  | 'uint32'
  | 'int32'
  | 'float32'
  | 'bool'
  | 'string'
  | 'uint64'
  | 'int64'
  | 'float64';

export type GgufValue =
  | { type: Exclude<GgufScalarType, 'string' | 'bool' | 'uint64' | 'int64'>; value: number }
  | { type: 'uint64' | 'int64'; value: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; itemType: GgufScalarType; value: ReadonlyArray<number | bigint | boolean | string> };

/** Value type ids from the GGUF spec. */
const TYPE_ID: Record<GgufScalarType | 'array', number> = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
};

/** Tensor types we can write. F32 keeps generated models exact; F16 halves the size of bigger ones. */
export type GgmlTensorType = 'F32' | 'F16';
const GGML_TYPE_ID: Record<GgmlTensorType, number> = { F32: 0, F16: 1 };

export interface GgufTensor {
  name: string;
  /** ggml order: dims[0] is the fastest-varying (row length), as in llama.cpp's `ne`. */
  dims: number[];
  type?: GgmlTensorType;
  data: Float32Array;
}

export interface GgufFile {
  metadata: Array<[key: string, value: GgufValue]>;
  tensors: GgufTensor[];
  /** general.alignment; written into the metadata when not 32 (the spec's default). */
  alignment?: number;
}

export const gguf = {
  u32: (value: number): GgufValue => ({ type: 'uint32', value }),
  i32: (value: number): GgufValue => ({ type: 'int32', value }),
  f32: (value: number): GgufValue => ({ type: 'float32', value }),
  bool: (value: boolean): GgufValue => ({ type: 'bool', value }),
  str: (value: string): GgufValue => ({ type: 'string', value }),
  u64: (value: bigint): GgufValue => ({ type: 'uint64', value }),
  array: (itemType: GgufScalarType, value: ReadonlyArray<number | bigint | boolean | string>): GgufValue => ({
    type: 'array',
    itemType,
    value,
  }),
};

/** A growable little-endian byte sink. */
class ByteSink {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const next = Buffer.alloc(size);
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  u8(value: number): void {
    this.reserve(1);
    this.buffer.writeUInt8(value, this.length);
    this.length += 1;
  }
  i8(value: number): void {
    this.reserve(1);
    this.buffer.writeInt8(value, this.length);
    this.length += 1;
  }
  u16(value: number): void {
    this.reserve(2);
    this.buffer.writeUInt16LE(value, this.length);
    this.length += 2;
  }
  i16(value: number): void {
    this.reserve(2);
    this.buffer.writeInt16LE(value, this.length);
    this.length += 2;
  }
  u32(value: number): void {
    this.reserve(4);
    this.buffer.writeUInt32LE(value, this.length);
    this.length += 4;
  }
  i32(value: number): void {
    this.reserve(4);
    this.buffer.writeInt32LE(value, this.length);
    this.length += 4;
  }
  f32(value: number): void {
    this.reserve(4);
    this.buffer.writeFloatLE(value, this.length);
    this.length += 4;
  }
  f64(value: number): void {
    this.reserve(8);
    this.buffer.writeDoubleLE(value, this.length);
    this.length += 8;
  }
  u64(value: bigint): void {
    this.reserve(8);
    this.buffer.writeBigUInt64LE(value, this.length);
    this.length += 8;
  }
  i64(value: bigint): void {
    this.reserve(8);
    this.buffer.writeBigInt64LE(value, this.length);
    this.length += 8;
  }
  bytes(data: Uint8Array): void {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }
  string(value: string): void {
    const encoded = Buffer.from(value, 'utf8');
    this.u64(BigInt(encoded.length));
    this.bytes(encoded);
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    this.reserve(pad);
    this.buffer.fill(0, this.length, this.length + pad);
    this.length += pad;
  }
  result(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeScalar(sink: ByteSink, type: GgufScalarType, value: number | bigint | boolean | string): void {
  switch (type) {
    case 'uint8':
      sink.u8(value as number);
      break;
    case 'int8':
      sink.i8(value as number);
      break;
    case 'uint16':
      sink.u16(value as number);
      break;
    case 'int16':
      sink.i16(value as number);
      break;
    case 'uint32':
      sink.u32(value as number);
      break;
    case 'int32':
      sink.i32(value as number);
      break;
    case 'float32':
      sink.f32(value as number);
      break;
    case 'float64':
      sink.f64(value as number);
      break;
    case 'bool':
      sink.u8(value ? 1 : 0);
      break;
    case 'string':
      sink.string(value as string);
      break;
    case 'uint64':
      sink.u64(value as bigint);
      break;
    case 'int64':
      sink.i64(value as bigint);
      break;
  }
}

function writeValue(sink: ByteSink, value: GgufValue): void {
  sink.u32(TYPE_ID[value.type]);
  if (value.type === 'array') {
    sink.u32(TYPE_ID[value.itemType]);
    sink.u64(BigInt(value.value.length));
    for (const item of value.value) writeScalar(sink, value.itemType, item);
    return;
  }
  writeScalar(sink, value.type, value.value);
}

/** IEEE half from a float, round-to-nearest-even (what ggml's FP32→FP16 does on CPUs without F16C too). */
export function float32ToFloat16Bits(value: number): number {
  const f32 = new Float32Array([value]);
  const bits = new Uint32Array(f32.buffer)[0];
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  let half = exponent - 127 + 15;
  if (half >= 0x1f) return sign | 0x7c00;
  if (half <= 0) {
    if (half < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - half;
    let result = mantissa >>> shift;
    const remainder = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (remainder > halfway || (remainder === halfway && result & 1)) result += 1;
    return sign | result;
  }
  let result = (half << 10) | (mantissa >>> 13);
  const remainder = mantissa & 0x1fff;
  if (remainder > 0x1000 || (remainder === 0x1000 && result & 1)) result += 1;
  half = result;
  return sign | half;
}

function tensorBytes(tensor: GgufTensor): Uint8Array {
  const count = tensor.dims.reduce((a, b) => a * b, 1);
  if (tensor.data.length !== count) {
    throw new Error(
      `tensor ${tensor.name}: ${tensor.data.length} values for dims [${tensor.dims.join(', ')}]`,
    );
  }
  if ((tensor.type ?? 'F32') === 'F32') {
    const copy = new Float32Array(tensor.data);
    return new Uint8Array(copy.buffer);
  }
  const halves = new Uint16Array(count);
  for (let i = 0; i < count; i++) halves[i] = float32ToFloat16Bits(tensor.data[i]);
  return new Uint8Array(halves.buffer);
}

/** Serializes a GGUF v3 file. Same input, same bytes. */
export function writeGguf(file: GgufFile): Buffer {
  const alignment = file.alignment ?? 32;
  const metadata = [...file.metadata];
  if (alignment !== 32 && !metadata.some(([key]) => key === 'general.alignment')) {
    metadata.push(['general.alignment', gguf.u32(alignment)]);
  }
  const sink = new ByteSink();
  sink.bytes(Buffer.from('GGUF', 'ascii'));
  sink.u32(3);
  sink.u64(BigInt(file.tensors.length));
  sink.u64(BigInt(metadata.length));
  for (const [key, value] of metadata) {
    sink.string(key);
    writeValue(sink, value);
  }
  const payloads = file.tensors.map(tensorBytes);
  let offset = 0;
  file.tensors.forEach((tensor, index) => {
    sink.string(tensor.name);
    sink.u32(tensor.dims.length);
    for (const dim of tensor.dims) sink.u64(BigInt(dim));
    sink.u32(GGML_TYPE_ID[tensor.type ?? 'F32']);
    sink.u64(BigInt(offset));
    offset += payloads[index].length;
    offset += (alignment - (offset % alignment)) % alignment;
  });
  sink.padTo(alignment);
  for (const payload of payloads) {
    sink.bytes(payload);
    sink.padTo(alignment);
  }
  return sink.result();
}
