import { createQueryId, type CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './schema.js';

const PLACEHOLDER = '\u0000value:';

/** One row's values, or the rows of a multi-row statement. */
type Values = object;

/**
 * Runs a query prepared by `prepareQuery` with these values, on the database or inside a transaction; resolves
 * to the driver's result (`numAffectedRows` tells a conditional update that matched nothing).
 */
export type PreparedQuery<V extends Values> = (executor: Kysely<Database>, values: V) => Promise<QueryResult<unknown>>;

/** Shapes kept compiled per query: multi-row statements of rarely seen sizes are compiled each time. */
const MAX_SHAPES = 64;

/**
 * A query that kysely builds and compiles once, then runs again with new values: for the statements every
 * request makes, where building and compiling took twice as long as SQLite executing them
 * (bench/README.md). `build` is called with a placeholder in place of each value; it runs again only for
 * values of another shape (other keys, or for an array of rows another length or other keys).
 */
export function prepareQuery<V extends Values>(
  build: (db: Kysely<Database>, values: V) => Compilable,
): PreparedQuery<V> {
  const byShape = new Map<string, Compiled>();
  return async (executor, values) => {
    const rows: object[] = Array.isArray(values) ? values : [values];
    const shape = `${Array.isArray(values) ? rows.length : '-'}:${Object.keys(rows[0] ?? {}).join(',')}`;
    let compiled = byShape.get(shape);
    if (!compiled) {
      compiled = compile(build, executor, values);
      if (byShape.size < MAX_SHAPES) byShape.set(shape, compiled);
    }
    const parameters = compiled.bind.map((bind) => bind(rows));
    // The query's tree goes along (its values the placeholders): PostgreSQL's group commit reads it to merge
    // statements (merged-statements.ts).
    return executor.executeQuery({ query: compiled.query, queryId: createQueryId(), sql: compiled.sql, parameters });
  };
}

interface Compiled {
  query: CompiledQuery['query'];
  sql: string;
  bind: Array<(rows: object[]) => unknown>;
}

function compile<V extends Values>(
  build: (db: Kysely<Database>, values: V) => Compilable,
  db: Kysely<Database>,
  example: V,
): Compiled {
  const withPlaceholders = (row: object, index: number) =>
    Object.fromEntries(Object.keys(row).map((key) => [key, `${PLACEHOLDER}${index}:${key}`]));
  const placeholders = (Array.isArray(example) ? example.map(withPlaceholders) : withPlaceholders(example, 0)) as V;
  const query = build(db, placeholders).compile();
  const bind = query.parameters.map((parameter): ((rows: object[]) => unknown) => {
    if (typeof parameter === 'string' && parameter.startsWith(PLACEHOLDER)) {
      const separator = parameter.indexOf(':', PLACEHOLDER.length);
      const index = Number(parameter.slice(PLACEHOLDER.length, separator));
      const key = parameter.slice(separator + 1);
      return (rows) => (rows[index] as Record<string, unknown>)[key] ?? null;
    }
    return () => parameter;
  });
  return { query: query.query, sql: query.sql, bind };
}
