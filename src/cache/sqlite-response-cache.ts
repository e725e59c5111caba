import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AssayError } from '../errors.js';
import type { ResponseCache } from './response-cache.js';

/**
 * `--use_cache PATH`: one SQLite file. WAL with synchronous=NORMAL makes every committed insert survive a
 * killed process (not a power cut), which is the promise `--use_cache` makes: a rerun re-sends nothing
 * already answered. A PATH without an extension gets `.sqlite` added.
 */
export class SqliteResponseCache implements ResponseCache {
  private readonly db: Database.Database;
  private readonly select: Database.Statement<[string], { value: string }>;
  private readonly insert: Database.Statement<[string, string]>;

  constructor(file: string) {
    const resolved = path.extname(file) ? file : `${file}.sqlite`;
    try {
      mkdirSync(path.dirname(path.resolve(resolved)), { recursive: true });
      this.db = new Database(resolved);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.exec(
        'CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID',
      );
    } catch (error) {
      throw new AssayError('io_error', `\`useCache\`: cannot open ${resolved}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    this.select = this.db.prepare('SELECT value FROM responses WHERE key = ?');
    this.insert = this.db.prepare('INSERT OR REPLACE INTO responses (key, value) VALUES (?, ?)');
  }

  get(key: string): string | undefined {
    return this.select.get(key)?.value;
  }

  put(key: string, value: string): void {
    this.insert.run(key, value);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
