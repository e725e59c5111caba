import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AssayError } from '../errors.js';
import { SqliteResponseCache } from './sqlite-response-cache.js';

/**
 * The answers of several SQLite response caches copied into one (created when missing), as `assay suite
 * merge` gathers its shards' per-model caches: a key is the request, so an answer already in the target
 * is kept and the others are added (a differing one is reported through `onConflict`). Returns the number
 * of answers added.
 */
export function mergeResponseCaches(
  target: string,
  sources: readonly string[],
  options: {
    /**
     * A source holding `count` answers that differ from those already kept for the same keys (a backend
     * that answered one request differently, as non-deterministic greedy decoding does): the first is kept.
     */
    onConflict?: (source: string, count: number) => void;
  } = {},
): number {
  // Opened once as a store, so the target has the store's table and pragmas.
  new SqliteResponseCache(target).close();
  const db = new Database(target);
  try {
    let added = 0;
    for (const source of sources) {
      if (!existsSync(source)) continue;
      try {
        db.prepare('ATTACH DATABASE ? AS source').run(source);
        try {
          const { count } = db
            .prepare(
              'SELECT COUNT(*) AS count FROM source.responses AS s JOIN main.responses AS m ON m.key = s.key WHERE m.value != s.value',
            )
            .get() as { count: number };
          if (count > 0) options.onConflict?.(source, count);
          added += db
            .prepare(
              'INSERT OR IGNORE INTO main.responses (key, value) SELECT key, value FROM source.responses',
            )
            .run().changes;
        } finally {
          db.prepare('DETACH DATABASE source').run();
        }
      } catch (error) {
        throw new AssayError(
          'io_error',
          `cannot copy the response cache ${source} into ${target}: ${(error as Error).message}`,
          { cause: error, location: { file: source } },
        );
      }
    }
    return added;
  } finally {
    db.close();
  }
}
