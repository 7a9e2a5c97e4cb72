import type { Database } from '../../db/index.js';

export type { TriggerEventsTable, TriggerEventStatus } from '../../db/index.js';

/** The part of the database the trigger event store needs. */
export type TriggerTables = Pick<Database, 'trigger_events'>;
