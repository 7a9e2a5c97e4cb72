import type { Kysely, Selectable } from 'kysely';
import { isUniqueViolation, type Database } from '../../db/index.js';
import type { ChatMessage } from '../../llm/index.js';
import type { ExecutionEnd, ExecutionRecord, StepResult } from '../missions/mission.types.js';

/** Persistence of mission executions and their step results. */
export interface ExecutionStore {
  /** Numbers the execution after the mission's previous one; false when this mission's tick already has an execution. */
  insert(execution: Omit<ExecutionRecord, 'attempt'>): Promise<boolean>;
  /**
   * Writes the end of an execution that is still running; false when it is not (another replica took it for
   * interrupted after this process stalled past its lease): nothing is written then.
   */
  finish(executionId: string, end: ExecutionEnd): Promise<boolean>;
  insertStep(step: StepResult): Promise<void>;
  /** Newest first. */
  listForMission(missionId: string, limit: number): Promise<ExecutionRecord[]>;
  /** Newest first, across the project's missions of one blueprint. */
  listForBlueprint(projectId: string, blueprintId: string, limit: number): Promise<ExecutionRecord[]>;
  listSteps(executionId: string): Promise<StepResult[]>;
  /** Marks executions still `running` as interrupted (after a crash); returns their mission ids. */
  interruptRunning(now: string): Promise<string[]>;
  /** Renews the lease of executions this process runs (multi-process mode). */
  touch(executionIds: string[], now: string): Promise<void>;
  /**
   * Marks running executions whose lease is older than `staleBefore` as interrupted: their replica died. One
   * conditional update, so of several replicas sweeping at once only one gets each; returns what it got.
   */
  interruptStale(now: string, staleBefore: string): Promise<{ execution_id: string; mission_id: string }[]>;
}

const INTERRUPTED = {
  status: 'interrupted' as const,
  error_code: 'interrupted',
  error_message: 'The server stopped during the execution',
};

export function createExecutionStore(db: Kysely<Database>): ExecutionStore {
  return {
    async insert(execution) {
      try {
        const last = await db
          .selectFrom('mission_executions')
          .select((eb) => eb.fn.max('attempt').as('attempt'))
          .where('mission_id', '=', execution.mission_id)
          .executeTakeFirst();
        await db
          .insertInto('mission_executions')
          .values({
            ...execution,
            attempt: Number(last?.attempt ?? 0) + 1,
            heartbeat_at: execution.status === 'running' ? execution.started_at : null,
          })
          .execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async finish(executionId, end) {
      const result = await db
        .updateTable('mission_executions')
        .set(end)
        .where('execution_id', '=', executionId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async touch(executionIds, now) {
      if (executionIds.length === 0) return;
      await db
        .updateTable('mission_executions')
        .set({ heartbeat_at: now })
        .where('execution_id', 'in', executionIds)
        .where('status', '=', 'running')
        .execute();
    },
    async interruptStale(now, staleBefore) {
      return db
        .updateTable('mission_executions')
        .set({ ...INTERRUPTED, finished_at: now })
        .where('status', '=', 'running')
        .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)]))
        .returning(['execution_id', 'mission_id'])
        .execute();
    },
    async insertStep(step) {
      const { telemetry, error, messages, ...rest } = step;
      await db
        .insertInto('mission_steps')
        .values({
          ...rest,
          ...telemetry,
          messages: JSON.stringify(messages),
          error_code: error?.code ?? null,
          error_message: error?.message ?? null,
        })
        .execute();
    },
    async listForMission(missionId, limit) {
      const rows = await db
        .selectFrom('mission_executions')
        .selectAll()
        .where('mission_id', '=', missionId)
        .orderBy('attempt', 'desc')
        .limit(limit)
        .execute();
      return rows.map(mapExecution);
    },
    async listForBlueprint(projectId, blueprintId, limit) {
      const rows = await db
        .selectFrom('mission_executions')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('blueprint_id', '=', blueprintId)
        .orderBy('started_at', 'desc')
        .orderBy('attempt', 'desc')
        .limit(limit)
        .execute();
      return rows.map(mapExecution);
    },
    async listSteps(executionId) {
      const rows = await db
        .selectFrom('mission_steps')
        .selectAll()
        .where('execution_id', '=', executionId)
        .orderBy('step_index')
        .execute();
      return rows.map(mapStep);
    },
    async interruptRunning(now) {
      const rows = await db
        .selectFrom('mission_executions')
        .select('mission_id')
        .where('status', '=', 'running')
        .execute();
      if (rows.length === 0) return [];
      await db
        .updateTable('mission_executions')
        .set({ ...INTERRUPTED, finished_at: now })
        .where('status', '=', 'running')
        .execute();
      return rows.map((row) => row.mission_id);
    },
  };
}

function mapExecution({ heartbeat_at: _lease, ...row }: Selectable<Database['mission_executions']>): ExecutionRecord {
  return {
    ...row,
    attempt: Number(row.attempt),
    cost_usd: Number(row.cost_usd),
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
  };
}

function mapStep(row: Selectable<Database['mission_steps']>): StepResult {
  const {
    cost_usd,
    input_tokens,
    output_tokens,
    model_used,
    latency_ms,
    error_code,
    error_message,
    messages,
    ...rest
  } = row;
  return {
    ...rest,
    messages: JSON.parse(messages) as ChatMessage[],
    telemetry: {
      cost_usd: Number(cost_usd),
      input_tokens: Number(input_tokens),
      output_tokens: Number(output_tokens),
      model_used,
      latency_ms: Number(latency_ms),
    },
    error: error_code ? { code: error_code, message: error_message ?? '' } : null,
  };
}
