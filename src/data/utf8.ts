/**
 * Strict UTF-8 decoding for data and task files. Node's `toString('utf8')` replaces bad bytes with
 * U+FFFD, so a file in Latin-1 or a truncated download would be scored as text nobody wrote; here it
 * stops with the file and the byte offset instead. TextDecoder's `fatal` mode says only that the text
 * is bad, not where, so the first ill-formed sequence is located by hand (Unicode's Table 3-7).
 */
import { isUtf8 } from 'node:buffer';
import { AssayError } from '../errors.js';

/** The offset of the first byte of the first ill-formed sequence, or -1 when the bytes are UTF-8. */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    let count: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) count = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      count = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      count = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= count; k++) {
      const byte = bytes[i + k];
      // Only the first continuation byte has a narrowed range.
      const min = k === 1 ? low : 0x80;
      const max = k === 1 ? high : 0xbf;
      if (byte === undefined || byte < min || byte > max) return i;
    }
    i += count + 1;
  }
  return -1;
}

/**
 * The text of a file's bytes, or a `bad_data` error naming the file, the byte offset (from 0) and
 * the line of the first byte that is not UTF-8. A leading BOM is kept, as `toString('utf8')` keeps it.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const offset = firstInvalidUtf8Byte(bytes);
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  const shown = Array.from(bytes.subarray(offset, offset + 4), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join(' ');
  throw new AssayError(
    'bad_data',
    `not UTF-8: byte offset ${offset} (line ${line}) starts an invalid sequence (bytes ${shown}); convert the file to UTF-8`,
    { location: { file, line } },
  );
}
