import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileStamp } from './file-stamp.js';
import { readStamped } from './read-stamped.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'assay-read-stamped-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readStamped', () => {
  it('reads what readFileSync reads, with the stamp a stat by path gives', () => {
    const cases: Record<string, Buffer> = {
      'empty.yaml': Buffer.alloc(0),
      'small.yaml': Buffer.from('task: a\n'),
      // Larger than the shared 64 KiB buffer, with multi-byte characters across its boundary.
      'large.yaml': Buffer.from(`description: "${'é中🙂'.repeat(30_000)}"\n`),
      // Bytes that are not UTF-8 decode as readFileSync decodes them (replacement characters).
      'latin1.yaml': Buffer.from([0x74, 0x3a, 0x20, 0xe9, 0xff, 0x0a]),
      'bom.yaml': Buffer.from('\ufefftask: b\n'),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      const read = readStamped(file);
      expect(read.text).toBe(readFileSync(file, 'utf8'));
      expect(read.stamp).toEqual(fileStamp(file));
      expect(read.stamp[0]).toBe(bytes.length);
    }
    // A small file after a large one is not followed by the large one's bytes.
    expect(readStamped(path.join(dir, 'small.yaml')).text).toBe('task: a\n');
  });

  it('throws what opening a missing file or a folder throws', () => {
    expect(() => readStamped(path.join(dir, 'missing.yaml'))).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(() => readStamped(dir)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });
});
