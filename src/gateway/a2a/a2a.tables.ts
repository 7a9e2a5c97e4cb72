import type { Database } from '../../db/index.js';

export type { A2aTasksTable } from '../../db/index.js';

/** The part of the database the A2A task store needs. */
export type A2aTables = Pick<Database, 'a2a_tasks'>;
