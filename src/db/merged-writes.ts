import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { Write } from './write.js';
import type { Database } from './schema.js';

/**
 * `insert into "t" (cols) values ($1, …), …` with nothing after it but, for an upsert, `on conflict (cols) do
 * update set …` that takes no parameter (it refers to `excluded`).
 */
const INSERT =
  /^(insert into "[^"]+" \(([^)]*)\) values )(\(\$\d+(?:, \$\d+)*\)(?:, \(\$\d+(?:, \$\d+)*\))*)( on conflict \(([^)]*)\) do update set [^$]*)?$/;
/** `update "t" set "a" = $1, "b" = "b" + $2 where "k" = $3 and … [returning "c", …]`. */
const UPDATE = /^update ("[a-z_]+") set (.+?) where (.+?)(?: returning ((?:"[a-z_]+"(?:, )?)+))?$/;
const SET_VALUE = /^("[a-z_]+") = (?:(\$\d+)|\1 \+ (\$\d+))$/;
const WHERE_EQUALS = /^("[a-z_]+") = (\$\d+)$/;

/** PostgreSQL takes at most 65,535 parameters per statement; merged statements stay well below. */
const MAX_PARAMETERS = 30_000;

interface Entry {
  rows: unknown[][];
  query: CompiledQuery;
  resolve: (result: QueryResult<unknown>) => void;
  reject: (error: unknown) => void;
}

/** What a statement is, for merging: statements of one `key` can go as one, rows of one `unique` value not. */
interface Mergeable {
  key: string;
  /** One array of values per row (an INSERT may carry several). */
  rows: unknown[][];
  unique(row: unknown[]): string | undefined;
  merge(entries: Entry[]): {
    query: CompiledQuery;
    resultOf(entry: Entry, result: QueryResult<unknown>): QueryResult<unknown>;
  };
}

/**
 * Runs one group-commit batch on PostgreSQL, where every statement is a round trip and costs the server a
 * parse, a plan and an execution: the batch's writes run side by side in its transaction, and whenever every
 * one of them waits on a statement that can be merged, the statements of the same text go as one: INSERTs as
 * one multi-row INSERT, UPDATEs by key as one `update … from json_populate_recordset(…)`. The runs, sessions,
 * steps, run ends, session turns and event logs of a batch's requests take one statement per kind instead of
 * one per request (bench/README.md, optimisation log). Other statements go to the server as they come. Each
 * write's own statements keep their order, since a write waits for each before it sends the next; writes of
 * one batch never depend on each other (WriteQueue). Rows with the same key go to separate statements, in
 * the order queued.
 */
export async function runWritesMerged(trx: Kysely<Database>, writes: readonly Write[]): Promise<void> {
  if (writes.length === 1) return writes[0](trx);
  let groups = new Map<string, { mergeable: Mergeable; entries: Entry[] }>();
  let running = writes.length;
  let waiting = 0;

  const flushIfAllWait = () => {
    if (waiting > 0 && waiting >= running) void flush();
  };

  async function flush(): Promise<void> {
    const flushing = groups;
    groups = new Map();
    for (const { mergeable, entries } of flushing.values()) {
      for (const merged of split(mergeable, entries)) {
        // A statement alone is sent as it came, and gives its own result.
        const statement =
          merged.length === 1
            ? { query: merged[0].query, resultOf: (_entry: Entry, result: QueryResult<unknown>) => result }
            : mergeable.merge(merged);
        try {
          const result = await trx.executeQuery(statement.query);
          for (const entry of merged) entry.resolve(statement.resultOf(entry, result));
        } catch (error) {
          for (const entry of merged) entry.reject(error);
        }
      }
    }
  }

  const executorFor = (): Kysely<Database> => {
    let pending = 0;
    const executeQuery = (query: CompiledQuery): Promise<QueryResult<unknown>> => {
      const mergeable = parseInsert(query) ?? parseUpdate(query);
      if (!mergeable) return trx.executeQuery(query);
      return new Promise<QueryResult<unknown>>((resolve, reject) => {
        const settle = () => {
          pending -= 1;
          if (pending === 0) waiting -= 1;
        };
        const entry: Entry = {
          rows: mergeable.rows,
          query,
          resolve: (result) => (settle(), resolve(result)),
          reject: (error) => (settle(), reject(error)),
        };
        let group = groups.get(mergeable.key);
        if (!group) groups.set(mergeable.key, (group = { mergeable, entries: [] }));
        group.entries.push(entry);
        pending += 1;
        if (pending === 1) waiting += 1;
        flushIfAllWait();
      });
    };
    // Kysely's own methods use private fields: they are called on the transaction itself.
    return new Proxy(trx, {
      get(target, property) {
        if (property === 'executeQuery') return executeQuery;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };

  const results = await Promise.allSettled(
    writes.map((write) =>
      Promise.resolve(executorFor())
        .then(write)
        .finally(() => {
          running -= 1;
          flushIfAllWait();
        }),
    ),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The entries as few statements as possible: an entry's rows stay together, rows of one unique value apart. */
function split(mergeable: Mergeable, entries: Entry[]): Entry[][] {
  if (entries.length === 1) return [entries];
  const statements: { entries: Entry[]; keys: Set<string>; parameters: number }[] = [];
  for (const entry of entries) {
    const keys = entry.rows.map((row) => mergeable.unique(row)).filter((key) => key !== undefined);
    const size = entry.rows.reduce((sum, row) => sum + row.length, 0);
    let statement = statements.find(
      (candidate) => candidate.parameters + size <= MAX_PARAMETERS && !keys.some((key) => candidate.keys.has(key)),
    );
    if (!statement) statements.push((statement = { entries: [], keys: new Set(), parameters: 0 }));
    statement.entries.push(entry);
    for (const key of keys) statement.keys.add(key);
    statement.parameters += size;
  }
  return statements.map((statement) => statement.entries);
}

/** The placeholders `$1`, `$2`, … of a statement as parameter indexes, or undefined when one is out of range. */
function parameterIndex(placeholder: string, parameters: readonly unknown[]): number | undefined {
  const index = Number(placeholder.slice(1)) - 1;
  return index >= 0 && index < parameters.length ? index : undefined;
}

function parseInsert(query: CompiledQuery): Mergeable | undefined {
  const match = INSERT.exec(query.sql);
  if (!match) return undefined;
  const [, head, columnList, values, suffix = '', conflictList] = match;
  const names = columnList.split(', ');
  const columns = names.length;
  const parameters = query.parameters;
  const placeholders = values.match(/\$\d+/g)!;
  // The rows must be the parameters in order ($1, $2, …), so they can be numbered again in a merged statement.
  if (placeholders.length !== parameters.length || placeholders.length % columns !== 0) return undefined;
  for (const [index, placeholder] of placeholders.entries()) if (placeholder !== `$${index + 1}`) return undefined;
  const rows: unknown[][] = [];
  for (let start = 0; start < parameters.length; start += columns) rows.push(parameters.slice(start, start + columns));
  const conflict = conflictList ? conflictList.split(', ').map((name) => names.indexOf(name)) : [];
  if (conflict.includes(-1)) return undefined;
  return {
    key: head + suffix,
    rows,
    unique: (row) => (conflict.length > 0 ? JSON.stringify(conflict.map((at) => row[at])) : undefined),
    merge(entries) {
      const merged: unknown[] = [];
      const tuples: string[] = [];
      for (const entry of entries)
        for (const row of entry.rows) {
          const start = merged.length;
          merged.push(...row);
          tuples.push(`(${row.map((_, index) => `$${start + index + 1}`).join(', ')})`);
        }
      return {
        query: CompiledQuery.raw(`${head}${tuples.join(', ')}${suffix}`, merged),
        // Each row inserts or (upsert) updates one row.
        resultOf: (entry) => ({ rows: [], numAffectedRows: BigInt(entry.rows.length) }),
      };
    },
  };
}

/**
 * An UPDATE of one row by key whose values are plain parameters (or added to the column): merged as
 * `update "t" set "a" = v."a", "b" = "t"."b" + v."b" from json_populate_recordset(null::"t", $1) v where "t"."k" =
 * v."k" returning "t"."k", …`, the rows as JSON typed by the table itself, each write given the rows of its key.
 * Our tables keep JSON documents in text columns: a json/jsonb column would take a string value as a JSON
 * string here, where the statement alone would parse it, so such a table must not be updated this way.
 */
function parseUpdate(query: CompiledQuery): Mergeable | undefined {
  const match = UPDATE.exec(query.sql);
  if (!match) return undefined;
  const [, table, setList, whereList, returningList] = match;
  const parameters = query.parameters;
  // Only values JSON carries as they are (no Date, Buffer or bigint).
  if (
    !parameters.every(
      (value) => value === null || ['string', 'boolean'].includes(typeof value) || Number.isFinite(value),
    )
  )
    return undefined;
  const sets: { column: string; at: number; add: boolean }[] = [];
  for (const item of setList.split(', ')) {
    const set = SET_VALUE.exec(item);
    const at = set ? parameterIndex(set[2] ?? set[3], parameters) : undefined;
    if (!set || at === undefined) return undefined;
    sets.push({ column: set[1], at, add: set[3] !== undefined });
  }
  const keys: { column: string; at: number }[] = [];
  for (const item of whereList.split(' and ')) {
    const where = WHERE_EQUALS.exec(item);
    const at = where ? parameterIndex(where[2], parameters) : undefined;
    if (!where || at === undefined) return undefined;
    keys.push({ column: where[1], at });
  }
  const columns = [...sets, ...keys].map(({ column }) => column);
  if (new Set(columns).size !== columns.length || columns.length !== parameters.length) return undefined;
  const returning = returningList ? returningList.split(', ') : [];
  const row = [...sets, ...keys].map(({ at }) => parameters[at]);
  const unquote = (column: string) => column.slice(1, -1);
  const keyOf = (values: unknown[]) => JSON.stringify(values.map(String));
  return {
    key: query.sql,
    rows: [row],
    unique: (values) => keyOf(values.slice(sets.length)),
    merge(entries) {
      const records = entries.map(({ rows: [values] }) =>
        Object.fromEntries(columns.map((column, index) => [unquote(column), values[index]])),
      );
      const assignments = sets.map(({ column, add }) =>
        add ? `${column} = ${table}.${column} + v.${column}` : `${column} = v.${column}`,
      );
      const matches = keys.map(({ column }) => `${table}.${column} = v.${column}`);
      const returned = [...new Set([...keys.map(({ column }) => column), ...returning])];
      const sql =
        `update ${table} set ${assignments.join(', ')} from json_populate_recordset(null::${table}, $1) as v ` +
        `where ${matches.join(' and ')} returning ${returned.map((column) => `${table}.${column}`).join(', ')}`;
      return {
        query: CompiledQuery.raw(sql, [JSON.stringify(records)]),
        resultOf(entry, result) {
          const wanted = keyOf(entry.rows[0].slice(sets.length));
          const rows = (result.rows as Record<string, unknown>[]).filter(
            (found) => keyOf(keys.map(({ column }) => found[unquote(column)])) === wanted,
          );
          const projected = rows.map((found) =>
            Object.fromEntries(returning.map((column) => [unquote(column), found[unquote(column)]])),
          );
          return { rows: projected, numAffectedRows: BigInt(rows.length) };
        },
      };
    },
  };
}
