import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDriver,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type PostgresPool,
  type PostgresPoolClient,
  type QueryResult,
} from 'kysely';
import type { Database } from './schema.js';
import type { Write } from './write.js';
import {
  mergeableStatement,
  splitForMerge,
  type MergeableStatement,
  type QueuedStatement,
} from './merged-statements.js';

/**
 * Writes one batch of PostgreSQL's group commit (write-queue.ts) in one transaction on one pooled connection,
 * the writes side by side: the INSERTs and keyed UPDATEs they send in one turn of the event loop go as one
 * statement per kind (merged-statements.ts), for every statement is a round trip and costs the server a parse,
 * a plan and an execution. The runs, sessions, steps, run ends, session turns and event logs of a batch's
 * requests take one statement per kind instead of one per request: switched off, CPU per chat completion
 * (gateway and PostgreSQL together) about doubled (bench/README.md, "Performance machinery", 2026-11-29).
 * Other statements go to the server as they come. Each write's own statements keep their order, since a write
 * waits for each before it sends the next; writes of one batch never depend on each other (WriteQueue). Rows
 * with the same key go to separate statements, in the order queued. The writes get a kysely instance of
 * their own, on that one connection: a kysely transaction would run their statements one at a time.
 */
export async function writeMergedBatch(pool: PostgresPool, writes: readonly Write[]): Promise<void> {
  const client = await pool.connect();
  // Every query of the batch's kysely takes this client; it goes back to the pool once, at the end.
  const pinned: PostgresPoolClient = { query: client.query.bind(client), release: () => undefined };
  const db = new Kysely<Database>({ dialect: createMergingDialect(pinned) });
  const run = (statement: string) => db.executeQuery(CompiledQuery.raw(statement));
  try {
    await run('begin');
    const results = await Promise.allSettled(writes.map((write) => write(db)));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    await run('commit');
  } catch (error) {
    await run('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

function createMergingDialect(client: PostgresPoolClient): Dialect {
  const pool: PostgresPool = { connect: async () => client, end: async () => undefined };
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new MergingPostgresDriver(pool),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/** The connection kysely's PostgreSQL driver hands out (its class is not exported). */
type PostgresConnection = Parameters<PostgresDriver['releaseConnection']>[0];

class MergingPostgresDriver extends PostgresDriver {
  readonly #wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #inner = new WeakMap<DatabaseConnection, PostgresConnection>();
  readonly #compiler = new PostgresQueryCompiler();

  constructor(pool: PostgresPool) {
    super({ pool });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = (await super.acquireConnection()) as PostgresConnection;
    let wrapped = this.#wrapped.get(connection);
    if (!wrapped) {
      wrapped = createMergingConnection(connection, this.#compiler);
      this.#wrapped.set(connection, wrapped);
      this.#inner.set(wrapped, connection);
    }
    return wrapped;
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await super.releaseConnection(this.#inner.get(connection) ?? (connection as PostgresConnection));
  }
}

function createMergingConnection(connection: DatabaseConnection, compiler: PostgresQueryCompiler): DatabaseConnection {
  let groups = new Map<string, { mergeable: MergeableStatement; statements: QueuedStatement[] }>();
  let scheduled = false;
  // One statement at a time on the connection (pg's client would queue them, but deprecates being asked to).
  let previous: Promise<unknown> = Promise.resolve();
  const send = <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    const result = previous.then(() => connection.executeQuery<R>(query));
    previous = result.catch(() => undefined);
    return result;
  };

  // Queues every group at once, in the order they were first asked for.
  function flush(): void {
    scheduled = false;
    const flushing = groups;
    groups = new Map();
    for (const { mergeable, statements } of flushing.values()) {
      for (const merged of splitForMerge(mergeable, statements)) {
        // A statement alone is sent as it came, and gives its own result.
        const statement =
          merged.length === 1
            ? { query: merged[0].query, resultOf: (_: QueuedStatement, result: QueryResult<unknown>) => result }
            : mergeable.merge(merged, compiler);
        send(statement.query).then(
          (result) => {
            for (const queued of merged) queued.resolve(statement.resultOf(queued, result));
          },
          (error: unknown) => {
            for (const queued of merged) queued.reject(error);
          },
        );
      }
    }
  }

  return {
    executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const mergeable = mergeableStatement(query);
      if (!mergeable) return send<R>(query);
      return new Promise<QueryResult<R>>((resolve, reject) => {
        let group = groups.get(mergeable.key);
        if (!group) groups.set(mergeable.key, (group = { mergeable, statements: [] }));
        group.statements.push({
          query,
          rows: mergeable.rows,
          resolve: resolve as (result: QueryResult<unknown>) => void,
          reject,
        });
        // Every write of the batch sends its next statement within the turn its previous one's result came in.
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}
