/**
 * A file's text with its stamp (util/file-stamp.ts) taken from the descriptor the text is read through,
 * before the read. The task index's cold scan reads and stamps 13,879 files of lm-eval's tree: one open,
 * fstat, read and close per file, where a stat by path and then `readFileSync` made a system call more
 * (and resolved the path twice). A file that grows between the fstat and the read is read whole; its
 * stamp is then the older one, so the next command sees it changed.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { type FileStamp, stampOf } from './file-stamp.js';

export interface StampedText {
  stamp: FileStamp;
  text: string;
}

// One buffer for every read: the files are small, and their text is decoded out of it.
const KEPT = 1 << 16;
const MAX_KEPT = 1 << 20;
let buffer = Buffer.allocUnsafe(KEPT);

/** Reads a UTF-8 file and stamps it; throws what `openSync` or `readSync` throws. */
export function readStamped(file: string): StampedText {
  const descriptor = openSync(file, 'r');
  try {
    const stamp = stampOf(fstatSync(descriptor));
    // One byte more than the size, so that a whole read ends with a short one (no second call for EOF).
    let length = 0;
    for (;;) {
      if (buffer.length < length + stamp[0] + 1) {
        const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, length + stamp[0] + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const read = readSync(descriptor, buffer, length, buffer.length - length, null);
      length += read;
      if (read === 0 || length <= stamp[0]) break;
    }
    return { stamp, text: buffer.toString('utf8', 0, length) };
  } finally {
    closeSync(descriptor);
    // A large file's buffer is not kept for the life of the process.
    if (buffer.length > MAX_KEPT) buffer = Buffer.allocUnsafe(KEPT);
  }
}
