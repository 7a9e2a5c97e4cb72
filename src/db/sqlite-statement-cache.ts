import type SqliteDatabase from 'better-sqlite3';

/** How many distinct SQL texts keep a prepared statement. The hot path uses a few dozen. */
export const SQLITE_STATEMENT_CACHE_SIZE = 256;

/** What kysely's SQLite driver calls of better-sqlite3's database. */
export interface StatementCache {
  prepare(source: string): SqliteDatabase.Statement;
  close(): void;
}

/**
 * The database kysely's SQLite driver gets, with `prepare` memoized by SQL text: kysely prepares every query
 * afresh, and preparing was a large part of each write's cost (switched off, CPU per chat completion rose by
 * about a third: bench/README.md, "Performance machinery", 2026-11-29). better-sqlite3 statements are reusable
 * and re-prepare themselves after a schema change (migrations). The cache is bounded (least recently used goes
 * first), and a statement still busy (an open `iterate` of kysely's `stream()`) is not handed out twice: a
 * fresh one is prepared for that call instead.
 */
export function createStatementCache(
  database: SqliteDatabase.Database,
  maxSize = SQLITE_STATEMENT_CACHE_SIZE,
): StatementCache {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(source: string) {
      const cached = statements.get(source);
      if (cached) {
        if (cached.busy) return database.prepare(source);
        // Re-inserted: a Map keeps insertion order, so the first key is the least recently used.
        statements.delete(source);
        statements.set(source, cached);
        return cached;
      }
      const statement = database.prepare(source);
      statements.set(source, statement);
      if (statements.size > maxSize) statements.delete(statements.keys().next().value!);
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
