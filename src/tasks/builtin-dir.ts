import path from 'node:path';
import { packagePath } from '../util/package-root.js';

/**
 * `tasks/` at the package root. Its own module, so that a replayed listing (cli/listing-replay.ts) can key
 * on it without loading the index.
 */
export function builtinTasksDir(): string {
  return packagePath('tasks') + path.sep;
}
