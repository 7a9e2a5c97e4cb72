import type { Config } from '../config/index.js';
import type { DatabaseHandle } from '../db/index.js';

/**
 * Which other processes this one shares its state with, decided once at start-up and read by every feature
 * that recovers work a stopped process left behind (runs, the trigger inbox, mission executions).
 */
export interface Topology {
  /**
   * PostgreSQL: replicas read and write the same rows, so work left running may belong to a live replica. It is
   * taken over only once its lease lapses. SQLite: this process is the database's only one (the data folder's
   * lock), so whatever it finds running at start-up a crash left behind.
   */
  sharedDatabase: boolean;
  /** Redis: run events and run control reach the other processes. */
  sharedBus: boolean;
  /** Every lease on shared work (runs, mission executions): renewed every `intervalMs`, lapsed after `staleMs`. */
  lease: { intervalMs: number; staleMs: number };
}

export function decideTopology(config: Config, database: Pick<DatabaseHandle, 'engine'>): Topology {
  const staleMs = config.runs.lease_seconds * 1000;
  return {
    sharedDatabase: database.engine === 'postgres',
    sharedBus: Boolean(config.server.redis_url),
    lease: { intervalMs: staleMs / 6, staleMs },
  };
}
