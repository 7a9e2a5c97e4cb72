import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/index.js';
import type { ListRunsFilter, PromptLog, RunEnd, RunRecord, StepRecord } from './run.types.js';

/** Persistence of runs and their steps. A run is written at start and at its end; a step once, when it ends. */
export interface RunStore {
  insertRun(run: RunRecord): Promise<void>;
  finishRun(runId: string, end: RunEnd): Promise<void>;
  insertStep(step: StepRecord): Promise<void>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  /** A run's steps in order, with their prompt logs. */
  listSteps(runId: string): Promise<StepRecord[]>;
  /** Newest first. */
  listRuns(filter: ListRunsFilter): Promise<RunRecord[]>;
}

export function createRunStore(db: Kysely<Database>): RunStore {
  return {
    async insertRun(run) {
      await db.insertInto('runs').values(run).execute();
    },
    async finishRun(runId, end) {
      await db.updateTable('runs').set(end).where('run_id', '=', runId).execute();
    },
    async insertStep(step) {
      await db
        .insertInto('run_steps')
        .values({ ...step, prompt_log: JSON.stringify(step.prompt_log) })
        .execute();
    },
    async getRun(runId) {
      const row = await db.selectFrom('runs').selectAll().where('run_id', '=', runId).executeTakeFirst();
      return row && mapRun(row);
    },
    async listSteps(runId) {
      const rows = await db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('step_index').execute();
      return rows.map(mapStep);
    },
    async listRuns({ agentName, status, limit, offset }) {
      let query = db.selectFrom('runs').selectAll();
      if (agentName !== undefined) query = query.where('agent_name', '=', agentName);
      if (status !== undefined) query = query.where('status', '=', status);
      const rows = await query.orderBy('started_at', 'desc').orderBy('run_id', 'desc').limit(limit).offset(offset).execute();
      return rows.map(mapRun);
    },
  };
}

// PostgreSQL may hand back numeric columns as strings (bigint, numeric); normalise once here.
function mapRun(row: Selectable<Database['runs']>): RunRecord {
  return {
    ...row,
    total_tokens: Number(row.total_tokens),
    input_tokens: Number(row.input_tokens),
    output_tokens: Number(row.output_tokens),
    cost_usd: Number(row.cost_usd),
    steps: Number(row.steps),
  };
}

function mapStep(row: Selectable<Database['run_steps']>): StepRecord {
  return {
    ...row,
    step_index: Number(row.step_index),
    latency_ms: Number(row.latency_ms),
    input_tokens: Number(row.input_tokens),
    output_tokens: Number(row.output_tokens),
    cost_usd: Number(row.cost_usd),
    prompt_log: JSON.parse(row.prompt_log) as PromptLog,
  };
}
