import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * Writes a response body to `file` (appending or from the start), telling `onChunk` each chunk's size. When the connection is cut, what
 * arrived before the cut is still written before the error is thrown, so the next attempt resumes from
 * it: `pipeline` would destroy the file stream and drop chunks still queued behind its open.
 */
export async function saveBody(
  body: Readable,
  file: string,
  append: boolean,
  onChunk?: (bytes: number) => void,
): Promise<void> {
  const out = createWriteStream(file, { flags: append ? 'a' : 'w' });
  const closed = once(out, 'close');
  // A write error also ends the loop below (at its next drain) and is the one thrown.
  closed.catch(() => undefined);
  let failure: unknown;
  try {
    for await (const chunk of body) {
      if (!out.write(chunk)) await once(out, 'drain');
      onChunk?.(chunk.length);
    }
  } catch (error) {
    failure = error;
  }
  if (!out.destroyed) out.end();
  await closed;
  if (failure !== undefined) throw failure;
}
