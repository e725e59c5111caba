/**
 * Making and probing the folder a run writes to, before the run: an unwritable `outputPath` must
 * fail in a second, not after an hour of evaluation. Folders are made one level at a time because
 * Node's `mkdir({ recursive: true })` loops forever under /proc (each level answers ENOENT, then EEXIST).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AssayError } from '../errors.js';

/** `EACCES (permission denied)` from a Node fs error, without the path Node appends. */
function reason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const text = (message ?? String(error)).replace(/^[A-Z]+: /, '').split(', ')[0];
  return code ? `${code} (${text})` : text;
}

function notWritable(flag: string, message: string, cause: unknown): AssayError {
  return new AssayError('io_error', `${flag}: ${message}`, { cause });
}

/** Creates `directory` and any missing parents; an existing non-folder or a refused mkdir is an error. */
export async function ensureDirectory(directory: string, flag = '`outputPath`'): Promise<void> {
  const missing: string[] = [];
  let current = path.resolve(directory);
  for (;;) {
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(current)).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = path.dirname(current);
      if ((code === 'ENOENT' || code === 'ENOTDIR') && parent !== current) {
        missing.unshift(current);
        current = parent;
        continue;
      }
      throw notWritable(flag, `cannot use ${current}: ${reason(error)}`, error);
    }
    if (!isDirectory) throw notWritable(flag, `${current} is a file, not a folder (ENOTDIR)`, undefined);
    break;
  }
  for (const folder of missing) {
    try {
      await mkdir(folder);
    } catch (error) {
      // Another run may have made it meanwhile.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && (await stat(folder)).isDirectory()) continue;
      throw notWritable(flag, `cannot create folder ${folder}: ${reason(error)}`, error);
    }
  }
}

/** Creates and removes a small file in `directory`, so a read-only or full file system shows now. */
export async function probeWritable(directory: string, flag = '`outputPath`'): Promise<void> {
  const probe = path.join(directory, `.assay-write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const handle = await open(probe, 'wx');
    try {
      await handle.write('ok');
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(probe, { force: true }).catch(() => undefined);
    throw notWritable(flag, `cannot write in ${directory}: ${reason(error)}`, error);
  }
  await rm(probe, { force: true });
}

/** For a command writing one report file (`ppl`, `kld`): its folder made and probed before the work. */
export async function prepareReportFolder(file: string, flag = '`outputPath`'): Promise<void> {
  const folder = path.dirname(path.resolve(file));
  await ensureDirectory(folder, flag);
  await probeWritable(folder, flag);
}
