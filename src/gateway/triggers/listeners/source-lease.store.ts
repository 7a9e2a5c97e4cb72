import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.js';

type LeaseTables = Pick<Database, 'source_leases'>;

export interface SourceLease {
  source_key: string;
  holder: string;
  expires_at: string;
  cursor: string | null;
  updated_at: string;
}

/**
 * Leases in the shared database for sources that only one replica may read at a time. Every write is
 * one conditional statement, so two replicas racing for a lapsed lease cannot both win it.
 */
export interface SourceLeaseStore {
  /** Takes the lease when it is free, lapsed or already ours: the stored cursor, or undefined when another replica holds it. */
  acquire(options: {
    key: string;
    holder: string;
    now: string;
    until: string;
  }): Promise<{ cursor: string | null } | undefined>;
  /** Extends our lease, recording the cursor when given; false when another replica has taken it over. */
  renew(options: { key: string; holder: string; now: string; until: string; cursor?: string }): Promise<boolean>;
  /** Gives our lease up at once (keeping the cursor for the next holder); nothing when it is no longer ours. */
  release(options: { key: string; holder: string; now: string; cursor?: string }): Promise<void>;
  get(key: string): Promise<SourceLease | undefined>;
}

/** Takes the app's Kysely instance, whose table map may or may not list source_leases yet. */
export function createSourceLeaseStore<DB>(database: Kysely<DB>): SourceLeaseStore {
  // Kysely's table map is invariant, and this store touches only its own table.
  const db = database as unknown as Kysely<LeaseTables>;
  const table = 'source_leases' as const;

  return {
    async acquire({ key, holder, now, until }) {
      const row = await db
        .insertInto(table)
        .values({ source_key: key, holder, expires_at: until, cursor: null, updated_at: now })
        .onConflict((conflict) =>
          conflict
            .column('source_key')
            .doUpdateSet({ holder, expires_at: until, updated_at: now })
            // ISO 8601 UTC strings compare in time order on both engines.
            .where((eb) => eb.or([eb('source_leases.holder', '=', holder), eb('source_leases.expires_at', '<=', now)])),
        )
        .returning(['cursor'])
        .executeTakeFirst();
      return row && { cursor: row.cursor };
    },
    async renew({ key, holder, now, until, cursor }) {
      const result = await db
        .updateTable(table)
        .set({ expires_at: until, updated_at: now, ...(cursor !== undefined ? { cursor } : {}) })
        .where('source_key', '=', key)
        .where('holder', '=', holder)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release({ key, holder, now, cursor }) {
      await db
        .updateTable(table)
        .set({ expires_at: now, updated_at: now, ...(cursor !== undefined ? { cursor } : {}) })
        .where('source_key', '=', key)
        .where('holder', '=', holder)
        .execute();
    },
    async get(key) {
      return db.selectFrom(table).selectAll().where('source_key', '=', key).executeTakeFirst();
    },
  };
}
