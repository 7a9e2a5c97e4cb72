import { Task, TaskState, taskStateToJSON, type ListTasksRequest, type ListTasksResponse } from '@a2a-js/sdk';
import type { Kysely } from 'kysely';
import type { A2aTables } from './a2a.tables.js';

const DEFAULT_PAGE_SIZE = 50;

/**
 * Whose tasks a read sees: one owner's (see auth ownerOf), or every task of the agent (`all`, for
 * operators).
 */
export type TaskVisibility = { owner: string } | 'all';

/** A2A tasks kept in our database, scoped by agent and owner. Tasks go in and out as the SDK's Task objects. */
export interface A2aTaskStore {
  /** Inserts the task owned by `owner` or replaces it (its owner never changes); its run id is read from `metadata.run_id`. */
  save(agentName: string, task: Task, now: string, owner: string): Promise<void>;
  get(agentName: string, taskId: string, visibility: TaskVisibility): Promise<Task | undefined>;
  /** Newest status first, keyset-paginated by (status timestamp, task id). */
  list(agentName: string, query: ListTasksRequest, visibility: TaskVisibility): Promise<ListTasksResponse>;
}

export function createA2aTaskStore<DB extends A2aTables>(database: Kysely<DB>): A2aTaskStore {
  // Kysely's table map is invariant, and this store touches only its own table.
  const db = database as unknown as Kysely<A2aTables>;
  return {
    async save(agentName, task, now, owner) {
      const runId = typeof task.metadata?.run_id === 'string' ? task.metadata.run_id : null;
      const row = {
        agent_name: agentName,
        context_id: task.contextId,
        run_id: runId,
        state: taskStateToJSON(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED),
        status_timestamp: task.status?.timestamp ?? now,
        task: JSON.stringify(Task.toJSON(task)),
        updated_at: now,
      };
      await db
        .insertInto('a2a_tasks')
        .values({ task_id: task.id, created_at: now, owner, ...row })
        // A task id names the same task for ever: a row of another agent is never overwritten.
        .onConflict((conflict) =>
          conflict.column('task_id').doUpdateSet(row).where('a2a_tasks.agent_name', '=', agentName),
        )
        .execute();
    },

    async get(agentName, taskId, visibility) {
      let query = db
        .selectFrom('a2a_tasks')
        .select('task')
        .where('task_id', '=', taskId)
        .where('agent_name', '=', agentName);
      if (visibility !== 'all') query = query.where('owner', '=', visibility.owner);
      const row = await query.executeTakeFirst();
      return row && Task.fromJSON(JSON.parse(row.task));
    },

    async list(agentName, query, visibility) {
      const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
      let filtered = db.selectFrom('a2a_tasks').where('agent_name', '=', agentName);
      if (visibility !== 'all') filtered = filtered.where('owner', '=', visibility.owner);
      if (query.contextId) filtered = filtered.where('context_id', '=', query.contextId);
      if (query.status !== undefined && query.status !== TaskState.TASK_STATE_UNSPECIFIED)
        filtered = filtered.where('state', '=', taskStateToJSON(query.status));
      if (query.statusTimestampAfter)
        filtered = filtered.where('status_timestamp', '>', new Date(query.statusTimestampAfter).toISOString());

      const cursor = decodePageToken(query.pageToken);
      let page = filtered.select(['task_id', 'status_timestamp', 'task']);
      if (cursor) {
        page = page.where((eb) =>
          eb.or([
            eb('status_timestamp', '<', cursor.timestamp),
            eb.and([eb('status_timestamp', '=', cursor.timestamp), eb('task_id', '<', cursor.id)]),
          ]),
        );
      }
      // One row more than the page tells whether a next page exists.
      const rows = await page
        .orderBy('status_timestamp', 'desc')
        .orderBy('task_id', 'desc')
        .limit(pageSize + 1)
        .execute();
      const { count } = await filtered
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();

      const shown = rows.slice(0, pageSize);
      const last = shown[shown.length - 1];
      return {
        tasks: shown.map((row) => {
          const task = Task.fromJSON(JSON.parse(row.task));
          return query.includeArtifacts ? task : { ...task, artifacts: [] };
        }),
        nextPageToken: rows.length > pageSize && last ? encodePageToken(last.status_timestamp, last.task_id) : '',
        pageSize,
        totalSize: Number(count),
      };
    },
  };
}

function encodePageToken(timestamp: string, id: string): string {
  return Buffer.from(JSON.stringify([timestamp, id])).toString('base64url');
}

/** An unreadable token starts from the first page rather than failing the call. */
function decodePageToken(token: string | undefined): { timestamp: string; id: string } | undefined {
  if (!token) return undefined;
  try {
    const [timestamp, id] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    return typeof timestamp === 'string' && typeof id === 'string' ? { timestamp, id } : undefined;
  } catch {
    return undefined;
  }
}
