import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ensureDirectory } from '../util/output-directory.js';

/**
 * Writes one file so that readers see either nothing or the whole file: write a temporary file beside
 * it, fsync, then rename over the target (for single-file reports; a run's files go through
 * staged-write.ts). `flag` names the option in errors about the folder.
 */
export async function writeFileAtomic(
  file: string,
  content: string | Iterable<string>,
  flag = '`outputPath`',
): Promise<void> {
  await ensureDirectory(path.dirname(file), flag);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    if (typeof content === 'string') await handle.writeFile(content, 'utf8');
    else {
      let buffer = '';
      for (const piece of content) {
        buffer += piece;
        if (buffer.length > 1 << 20) {
          await handle.write(buffer);
          buffer = '';
        }
      }
      if (buffer) await handle.write(buffer);
    }
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
}

/**
 * The output folder name for a model: lm-eval's sanitisation (each run of `"<>:/|\\?*[]` becomes `__`),
 * then any leading dots, with the `__` after them, removed. lm-eval stops there, so a model given by a
 * relative path (`../models/m.gguf` → `..__models__m.gguf`) lands in a hidden folder that `ls` and globs
 * skip; HF-style names (`org/model` → `org__model`) never start with a dot and keep lm-eval's name.
 */
export function sanitizeModelName(name: string): string {
  const lmEval = name.replace(/["<>:/|\\?*[\]]+/g, '__');
  return lmEval.replace(/^(?:\.+(?:__)?)+/, '') || 'model';
}
