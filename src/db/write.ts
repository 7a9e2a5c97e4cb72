import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A write: one or more statements, run against the executor it is given. It must not wait for another queued write. */
export type Write = (db: Kysely<Database>) => Promise<void>;
