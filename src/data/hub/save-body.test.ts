import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { saveBody } from './save-body.js';

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-save-body-'));
afterAll(() => rm(directory, { recursive: true, force: true }));

/** A body that delivers `chunk`, then fails on the next tick, before a file's open has completed. */
function cutAfter(chunk: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) return;
      sent = true;
      this.push(chunk);
      process.nextTick(() => this.destroy(new Error('terminated')));
    },
  });
}

describe('saveBody', () => {
  it('keeps the bytes that arrived before a cut, then throws the cut', async () => {
    // stream.pipeline destroyed the file stream with the chunk still queued behind its open: 0 bytes.
    const file = path.join(directory, 'cut.incomplete');
    await expect(saveBody(cutAfter(Buffer.alloc(1000, 97)), file, false)).rejects.toThrow('terminated');
    expect((await readFile(file)).length).toBe(1000);
    // The next attempt appends what the Range request returns.
    await saveBody(Readable.from([Buffer.from('tail')]), file, true);
    expect((await readFile(file, 'utf8')).slice(995)).toBe('aaaaatail');
  });

  it('writes a whole body, and rewrites the file when not appending', async () => {
    const file = path.join(directory, 'whole');
    await writeFile(file, 'old content that is longer');
    await saveBody(Readable.from([Buffer.from('new '), Buffer.from('body')]), file, false);
    expect(await readFile(file, 'utf8')).toBe('new body');
  });

  it('throws a write error (a folder in the file’s place)', async () => {
    await expect(saveBody(Readable.from([Buffer.from('x')]), directory, false)).rejects.toThrow(/EISDIR/);
  });
});
