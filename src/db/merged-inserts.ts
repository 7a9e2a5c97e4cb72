import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { Write } from './write-queue.js';
import type { Database } from './schema.js';

/**
 * `insert into "t" (cols) values ($1, …), …` with nothing after it but, for an upsert, `on conflict (cols) do
 * update set …` that takes no parameter (it refers to `excluded`): the statements whose rows can go into one
 * multi-row INSERT with another's.
 */
const MERGEABLE =
  /^(insert into "[^"]+" \(([^)]*)\) values )(\(\$\d+(?:, \$\d+)*\)(?:, \(\$\d+(?:, \$\d+)*\))*)( on conflict \(([^)]*)\) do update set [^$]*)?$/;

/** PostgreSQL takes at most 65,535 parameters per statement; merged statements stay well below. */
const MAX_PARAMETERS = 30_000;

interface Parsed {
  /** The statement without its rows: same key, same columns, same conflict clause. */
  key: string;
  head: string;
  suffix: string;
  columns: number;
  /** Positions (in a row) of the conflict target's columns: two rows with the same values may not share a statement. */
  conflict: number[];
  rows: unknown[][];
}

interface Entry {
  rows: unknown[][];
  query: CompiledQuery;
  resolve: (result: QueryResult<unknown>) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs one group-commit batch on PostgreSQL, where every statement is a round trip and costs the server a
 * parse, a plan and an execution: the batch's writes run side by side in its transaction, and whenever every
 * one of them waits on an INSERT, the INSERTs of the same text are sent as one multi-row INSERT. The runs,
 * sessions, steps, session turns and event logs of a batch's requests take one statement per table instead
 * of one per request (bench/README.md, optimisation log). Other statements (updates, selects, inserts with
 * RETURNING) go to the server as they come; each write's own statements keep their order, since a write
 * waits for each before it sends the next. Writes of one batch never depend on each other (WriteQueue).
 */
export async function runWritesMerged(trx: Kysely<Database>, writes: readonly Write[]): Promise<void> {
  if (writes.length === 1) return writes[0](trx);
  let groups = new Map<string, { parsed: Parsed; entries: Entry[] }>();
  let running = writes.length;
  let waiting = 0;

  const flushIfAllWait = () => {
    if (waiting > 0 && waiting >= running) void flush();
  };

  async function flush(): Promise<void> {
    const flushing = groups;
    groups = new Map();
    for (const { parsed, entries } of flushing.values()) {
      for (const statement of statementsOf(parsed, entries)) {
        try {
          const result = await trx.executeQuery(statement.query);
          // A statement sent as it was gives its own result; a merged one, each write its own row count.
          for (const entry of statement.entries)
            entry.resolve(
              statement.entries.length === 1 ? result : { rows: [], numAffectedRows: BigInt(entry.rows.length) },
            );
        } catch (error) {
          for (const entry of statement.entries) entry.reject(error);
        }
      }
    }
  }

  const executorFor = (): Kysely<Database> => {
    let pending = 0;
    const executeQuery = (query: CompiledQuery): Promise<QueryResult<unknown>> => {
      const parsed = parseInsert(query);
      if (!parsed) return trx.executeQuery(query);
      return new Promise<QueryResult<unknown>>((resolve, reject) => {
        const settle = () => {
          pending -= 1;
          if (pending === 0) waiting -= 1;
        };
        const entry: Entry = {
          rows: parsed.rows,
          query,
          resolve: (result) => (settle(), resolve(result)),
          reject: (error) => (settle(), reject(error)),
        };
        let group = groups.get(parsed.key);
        if (!group) groups.set(parsed.key, (group = { parsed, entries: [] }));
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

function parseInsert(query: CompiledQuery): Parsed | undefined {
  const match = MERGEABLE.exec(query.sql);
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
  return { key: head + suffix, head, suffix, columns, conflict, rows };
}

/**
 * The group's entries as few statements as possible: an entry's rows stay together, and an upsert's rows with
 * the same conflict key go to different statements (PostgreSQL refuses to update one row twice in one).
 */
function statementsOf(parsed: Parsed, entries: Entry[]): { query: CompiledQuery; entries: Entry[] }[] {
  if (entries.length === 1) return [{ query: entries[0].query, entries }];
  const statements: { entries: Entry[]; keys: Set<string>; parameters: number }[] = [];
  for (const entry of entries) {
    const keys =
      parsed.conflict.length > 0 ? entry.rows.map((row) => JSON.stringify(parsed.conflict.map((at) => row[at]))) : [];
    const size = entry.rows.length * parsed.columns;
    let statement = statements.find(
      (candidate) => candidate.parameters + size <= MAX_PARAMETERS && !keys.some((key) => candidate.keys.has(key)),
    );
    if (!statement) statements.push((statement = { entries: [], keys: new Set(), parameters: 0 }));
    statement.entries.push(entry);
    for (const key of keys) statement.keys.add(key);
    statement.parameters += size;
  }
  return statements.map(({ entries: merged }) => {
    if (merged.length === 1) return { query: merged[0].query, entries: merged };
    const parameters: unknown[] = [];
    const tuples: string[] = [];
    for (const entry of merged)
      for (const row of entry.rows) {
        const start = parameters.length;
        parameters.push(...row);
        tuples.push(`(${row.map((_, index) => `$${start + index + 1}`).join(', ')})`);
      }
    return {
      query: CompiledQuery.raw(`${parsed.head}${tuples.join(', ')}${parsed.suffix}`, parameters),
      entries: merged,
    };
  });
}
