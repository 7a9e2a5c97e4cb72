/**
 * The A2A task table, declared like db/schema.ts declares its tables (ISO timestamps, JSON in text
 * columns). db/schema.ts `Database` lists the same table, so the store accepts the app's Kysely instance.
 */
export interface A2aTables {
  a2a_tasks: A2aTasksTable;
}

/** One A2A task: the SDK task as proto-JSON plus the columns that tasks/list filters and sorts on. */
export interface A2aTasksTable {
  task_id: string;
  /** The agent the task was sent to: tasks are scoped to it. */
  agent_name: string;
  context_id: string;
  /** The run that executes the task; null only when the run could not start. */
  run_id: string | null;
  /** proto-JSON task state, e.g. TASK_STATE_WORKING. */
  state: string;
  status_timestamp: string;
  /** JSON: the task as `Task.toJSON` writes it. */
  task: string;
  created_at: string;
  updated_at: string;
}
