import { fileURLToPath } from 'node:url';

/**
 * `tasks/` at the package root: two levels up from both src/tasks/ and dist/tasks/. Its own module, so
 * that a replayed listing (cli/listing-replay.ts) can key on it without loading the index.
 */
export function builtinTasksDir(): string {
  return fileURLToPath(new URL('../../tasks/', import.meta.url));
}
