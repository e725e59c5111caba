import { statSync } from 'node:fs';
import { AssayError } from '../errors.js';

/**
 * `--include_path` folders must exist: a typo in one would otherwise only show up as "unknown task",
 * or not at all when the task is also found elsewhere.
 */
export function checkIncludePath(folders: readonly string[] | undefined): void {
  for (const folder of folders ?? []) {
    let isFolder: boolean;
    try {
      isFolder = statSync(folder).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new AssayError(
        'bad_argument',
        code === 'ENOENT'
          ? `--include_path: ${folder} does not exist`
          : `--include_path: cannot read ${folder} (${code})`,
        { cause: error },
      );
    }
    if (!isFolder) throw new AssayError('bad_argument', `--include_path: ${folder} is not a folder`);
  }
}
