import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema.js';

const PLACEHOLDER = '\u0000value:';

/** Runs a query prepared by `prepareQuery` with these values, on the database or inside a transaction. */
export type PreparedQuery<V extends object> = (executor: Kysely<Database>, values: V) => Promise<void>;

/**
 * A query that kysely builds and compiles once, then runs again with new values: for the few statements
 * every request makes, where building and compiling took twice as long as SQLite executing them
 * (bench/README.md). `build` is called with a placeholder in place of each value; it runs again only for
 * values with another set of keys.
 */
export function prepareQuery<V extends object>(build: (db: Kysely<Database>, values: V) => Compilable): PreparedQuery<V> {
  const byKeys = new Map<string, Compiled<V>>();
  return async (executor, values) => {
    const keys = Object.keys(values).join(',');
    let compiled = byKeys.get(keys);
    if (!compiled) {
      compiled = compile(build, executor, values);
      byKeys.set(keys, compiled);
    }
    const parameters = compiled.bind.map((bind) => bind(values));
    await executor.executeQuery(CompiledQuery.raw(compiled.sql, parameters));
  };
}

interface Compiled<V> {
  sql: string;
  bind: Array<(values: V) => unknown>;
}

function compile<V extends object>(build: (db: Kysely<Database>, values: V) => Compilable, db: Kysely<Database>, example: V): Compiled<V> {
  const placeholders = Object.fromEntries(Object.keys(example).map((key) => [key, `${PLACEHOLDER}${key}`])) as V;
  const query = build(db, placeholders).compile();
  const bind = query.parameters.map((parameter): ((values: V) => unknown) => {
    if (typeof parameter === 'string' && parameter.startsWith(PLACEHOLDER)) {
      const key = parameter.slice(PLACEHOLDER.length) as keyof V;
      return (values) => values[key] ?? null;
    }
    return () => parameter;
  });
  return { sql: query.sql, bind };
}
