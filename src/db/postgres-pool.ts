import { createRequire } from 'node:module';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { DatabaseUnavailableError } from '../errors.js';
import { asUnavailable, isConnectionLoss } from './connection-errors.js';
import type { Reachability } from './reachability.js';

export interface PostgresPoolOptions {
  url: string;
  maxConnections: number;
  /** A statement not answered in this long fails (503) and its connection is dropped: a half-open socket is never waited on. */
  queryTimeoutMs: number;
  /** Opening a connection, or waiting for a free one, fails after this long. */
  connectTimeoutMs: number;
  /** A connection lost or refused (logged by the caller, at a bounded rate). */
  onConnectionError: (error: Error) => void;
  /** Told of every statement's outcome: a connection loss, or an answer. */
  reachability: Reachability;
}

/** TCP keepalive probes start after this long idle, so a pooled connection whose peer vanished is noticed. */
const KEEPALIVE_IDLE_MS = 10_000;

/**
 * pg's pool as kysely uses it, made to survive a database that goes away (a failover, a restart,
 * `pg_terminate_backend`, a partition):
 * - every client has an 'error' listener: pg emits 'error' on a checked-out client whose connection drops
 *   between two statements, and an unheard 'error' ends the process;
 * - a statement silent past `queryTimeoutMs` fails, and so does its connection (pg's own read timeout leaves the
 *   hung query in place, so the client would go back to the pool and hang the next caller); the server's
 *   `statement_timeout` matches, so it stops the work too;
 * - a client whose statement failed for a lost connection is released as broken, never reused;
 * - those errors reach callers as `DatabaseUnavailableError` (503 with Retry-After), any other unchanged.
 */
export function createPostgresPool(options: PostgresPoolOptions): PostgresPool {
  // pg loads only for PostgreSQL, not at every start on SQLite.
  const { Pool } = createRequire(import.meta.url)('pg') as typeof pg;
  const pool = new Pool({
    connectionString: options.url,
    max: options.maxConnections,
    connectionTimeoutMillis: options.connectTimeoutMs,
    query_timeout: options.queryTimeoutMs,
    statement_timeout: options.queryTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
  });
  // An idle client's lost connection: the pool has dropped it already; the next query opens another.
  pool.on('error', options.onConnectionError);
  pool.on('connect', (client) => client.on('error', options.onConnectionError));
  const { reachability } = options;
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect().catch((error: unknown) => {
        const unavailable = asUnavailable(error);
        if (unavailable instanceof DatabaseUnavailableError) reachability.lost(unavailable);
        throw unavailable;
      });
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = wrapClient(client, reachability);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

function wrapClient(client: pg.PoolClient, reachability: Reachability): PostgresPoolClient {
  let broken = false;
  // A COMMIT whose connection was lost: kysely rolls back next, which fails on the lost connection too, and
  // its error would hide that the transaction may have committed (DatabaseUnavailableError.commitUnknown).
  let lostCommit: DatabaseUnavailableError | undefined;
  const query = async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
    if (sql === 'rollback' && lostCommit) throw lostCommit;
    try {
      const result = (await client.query(sql, parameters as unknown[])) as unknown as PostgresQueryResult<R>;
      reachability.reached();
      return result;
    } catch (error) {
      if (!isConnectionLoss(error)) throw error;
      broken = true;
      const unavailable = asUnavailable(error, sql === 'commit') as DatabaseUnavailableError;
      reachability.lost(unavailable);
      if (sql === 'commit') lostCommit = unavailable;
      throw unavailable;
    }
  };
  return {
    query: query as PostgresPoolClient['query'],
    release() {
      // An error given to release() makes the pool close the client instead of keeping it.
      client.release(broken || undefined);
      broken = false;
      lostCommit = undefined;
    },
  };
}
