import { statSync } from 'node:fs';
import { AssayError } from '../errors.js';

/**
 * `includePath` folders (--include_path) must exist: a typo in one would otherwise only show up as "unknown task",
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
        code === 'ENOENT' ? 'not_found' : 'io_error',
        code === 'ENOENT'
          ? `\`includePath\`: ${folder} does not exist`
          : `\`includePath\`: cannot read ${folder} (${code})`,
        { cause: error },
      );
    }
    if (!isFolder) throw new AssayError('io_error', `\`includePath\`: ${folder} is not a folder`);
  }
}
