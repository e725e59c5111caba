import { describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { decodeUtf8, firstInvalidUtf8Byte } from './utf8.js';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('firstInvalidUtf8Byte', () => {
  it('accepts well-formed text of every sequence length, and agrees with TextDecoder on it', () => {
    const text = 'a é € 𝄞 \u{10FFFF} \uD7FF \uE000';
    const encoded = new TextEncoder().encode(text);
    expect(firstInvalidUtf8Byte(encoded)).toBe(-1);
    expect(new TextDecoder('utf-8', { fatal: true }).decode(encoded)).toBe(text);
  });

  // Each row: the bytes and the offset of the first ill-formed sequence (Unicode Table 3-7's ranges).
  it.each([
    [[0x61, 0xe9, 0x62], 1], // Latin-1 é: a lone lead byte
    [[0x80], 0], // a continuation byte without a lead
    [[0xc0, 0xaf], 0], // overlong encoding of '/'
    [[0xc1, 0xbf], 0],
    [[0xe0, 0x9f, 0xbf], 0], // overlong three-byte form
    [[0xed, 0xa0, 0x80], 0], // a UTF-16 surrogate (U+D800)
    [[0xf0, 0x8f, 0xbf, 0xbf], 0], // overlong four-byte form
    [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
    [[0xf5, 0x80, 0x80, 0x80], 0],
    [[0x61, 0x62, 0xe2, 0x82], 2], // truncated at the end of the file
    [[0xe2, 0x82, 0x41], 0], // a continuation byte missing mid-text
    [[0x61, 0xff], 1],
  ])('%j is invalid at %i', (input, offset) => {
    const value = Uint8Array.from(input);
    expect(firstInvalidUtf8Byte(value)).toBe(offset);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(value)).toThrow();
  });
});

describe('decodeUtf8', () => {
  it('decodes UTF-8 as Buffer#toString does, BOM kept', () => {
    const value = Buffer.from('\uFEFF{"a": "é"}\n', 'utf8');
    expect(decodeUtf8(value, 'f.jsonl')).toBe(value.toString('utf8'));
  });

  it('names the file, the byte offset and the line of the first bad byte', () => {
    const value = Buffer.concat([Buffer.from('{"a": 1}\n{"b": "caf'), bytes(0xe9), Buffer.from('"}\n')]);
    let caught: unknown;
    try {
      decodeUtf8(value, '/data/test.jsonl');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AssayError);
    const error = caught as AssayError;
    expect(error.code).toBe('bad_data');
    expect(error.location).toEqual({ file: '/data/test.jsonl', line: 2 });
    expect(error.format()).toBe(
      '/data/test.jsonl:2: not UTF-8: byte offset 19 (line 2) starts an invalid sequence (bytes e9 22 7d 0a); convert the file to UTF-8',
    );
  });
});
