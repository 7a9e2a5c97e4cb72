import type { Insertable, Kysely, Selectable } from 'kysely';
import type { RunEvent } from '../../bus/index.js';
import { createDirectWrites, prepareQuery, type Database, type Write, type WriteQueue } from '../../db/index.js';
import { isoNow } from '../../ids.js';
import { createBudgetQueries, type BudgetQueries } from '../budgets/budget.store.js';
import { createRunCoordinationQueries, type RunCoordinationQueries } from '../control/run-coordination.store.js';
import { createRunCountQueries, type RunCountQueries } from './run-counts.store.js';
import { createRunSpendQueries, type RunSpendQueries } from '../budgets/run-spend.store.js';
import type {
  ChangedRunsFilter,
  ListRunsFilter,
  NewRunRecord,
  PromptLog,
  ResumeInput,
  RunEnd,
  RunRecord,
  RunTrigger,
  StepRecord,
} from './run.types.js';
import { ACTIVE_RUN_STATUSES } from './run.types.js';
import { expandPromptLogs } from './prompt-log-refs.js';
import type { ChatMessage } from '../../llm/index.js';

/** Persistence of runs, their steps and their event logs. A run is written at start and at its end; a step once, when it ends. */
export interface RunStore extends RunCoordinationQueries, RunCountQueries, RunSpendQueries, BudgetQueries {
  /**
   * `resume`: what a takeover needs to continue the run (runs.resume), stored with it. `before`: a write
   * committed with the run's insert, ahead of it (the insert of the run's new session): both or neither.
   */
  insertRun(run: NewRunRecord, resume?: ResumeInput, options?: { before?: Write; persistent?: boolean }): Promise<void>;
  /**
   * Writes the run's end and, in the same transaction, its event log: a run that reads as ended has its log.
   * With `attempt`, only while the run is still on that attempt: a process that stalled past its lease
   * (GC, SIGSTOP) and was taken over must not write its end over the new owner's. Resolves to false when
   * nothing was written. `after`: a write committed with the end, only when the end is written (a session's
   * new turns).
   */
  finishRun(
    runId: string,
    end: RunEnd,
    events?: RunEvent[],
    options?: { attempt?: number; after?: Write },
  ): Promise<boolean>;
  insertStep(step: StepRecord): Promise<void>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  /** A run's steps in order, with their prompt logs. */
  listSteps(runId: string): Promise<StepRecord[]>;
  /** Newest first. */
  listRuns(filter: ListRunsFilter): Promise<RunRecord[]>;
  /** Runs running or paused, started at or after `since`, or named in `runIds`; newest first (the runs change feed). */
  listChangedRuns(filter: ChangedRunsFilter): Promise<RunRecord[]>;
  /** The persisted event log of a finished run; undefined when none was written. */
  getEventLog(runId: string): Promise<RunEvent[] | undefined>;
}

/** `writes` carries the writes of the request path (app.ts: the database's group commit on SQLite). */
export function createRunStore(db: Kysely<Database>, writes: WriteQueue = createDirectWrites(db)): RunStore {
  // Every request writes these: compiled once (db/prepared-query.ts).
  const insertRunRow = prepareQuery((trx, row: Insertable<Database['runs']>) => trx.insertInto('runs').values(row));
  const insertStepRow = prepareQuery((trx, row: Insertable<Database['run_steps']>) =>
    trx.insertInto('run_steps').values(row),
  );
  const upsertEventLog = prepareQuery((trx, row: Insertable<Database['run_event_logs']>) =>
    trx
      .insertInto('run_event_logs')
      .values(row)
      // `excluded`, not the values again: the statement takes rows only, so a batch's logs merge into one
      // multi-row INSERT on PostgreSQL (db/merged-writes.ts).
      .onConflict((oc) =>
        oc.column('run_id').doUpdateSet((eb) => ({
          events: eb.ref('excluded.events'),
          event_count: eb.ref('excluded.event_count'),
          persisted_at: eb.ref('excluded.persisted_at'),
        })),
      ),
  );
  // An ended run is never resumed: what a takeover would have read goes with its end.
  const updateRunEnd = prepareQuery((trx, { run_id, ...end }: RunEnd & { run_id: string }) =>
    trx
      .updateTable('runs')
      .set({ ...end, resume_input: null })
      .where('run_id', '=', run_id),
  );
  const updateRunEndOfAttempt = prepareQuery(
    (trx, { run_id, attempt, ...end }: RunEnd & { run_id: string; attempt: number }) =>
      trx
        .updateTable('runs')
        .set({ ...end, resume_input: null })
        .where('run_id', '=', run_id)
        .where('attempts', '=', attempt),
  );
  const loadHistory = async (sessionId: string, count: number) => {
    const rows = await db
      .selectFrom('session_messages')
      .select('message')
      .where('session_id', '=', sessionId)
      .where('seq', '<', count)
      .orderBy('seq')
      .execute();
    return rows.map((row) => JSON.parse(row.message) as ChatMessage);
  };
  return {
    ...createRunCoordinationQueries(db),
    ...createRunCountQueries(db),
    ...createRunSpendQueries(db),
    ...createBudgetQueries(db),
    insertRun(run, resume, options = {}) {
      const row = {
        ...run,
        control_request: null,
        heartbeat_at: run.started_at,
        resume_input: resume ? JSON.stringify(resume) : null,
        triggered_by: run.triggered_by ? JSON.stringify(run.triggered_by) : null,
      };
      const { before, persistent } = options;
      // Its client waits: a locked SQLite database answers it 503 at once, and the run is recorded once back.
      const failFastWhenLocked = !persistent;
      if (!before)
        return writes.write(async (trx) => void (await insertRunRow(trx, row)), { persistent, failFastWhenLocked });
      return writes.write(
        async (trx) => {
          await before(trx);
          await insertRunRow(trx, row);
        },
        { atomic: true, persistent, failFastWhenLocked },
      );
    },
    async finishRun(runId, end, events, options = {}) {
      const log =
        events && events.length > 0
          ? { run_id: runId, events: JSON.stringify(events), event_count: events.length, persisted_at: isoNow() }
          : undefined;
      let written = false;
      await writes.write(
        async (trx) => {
          const { attempt } = options;
          const result =
            attempt === undefined
              ? await updateRunEnd(trx, { ...end, run_id: runId })
              : await updateRunEndOfAttempt(trx, { ...end, run_id: runId, attempt });
          written = Number(result.numAffectedRows ?? 0) > 0;
          // The log goes with the end: a refused end leaves the new owner's log alone too.
          if (written && log) await upsertEventLog(trx, log);
          if (written && options.after) await options.after(trx);
        },
        // Its client has been told how the run ended: the store must come to say the same.
        { atomic: true, persistent: true },
      );
      return written;
    },
    insertStep(step) {
      const row = { ...step, prompt_log: JSON.stringify(step.prompt_log) };
      return writes.write(async (trx) => void (await insertStepRow(trx, row)));
    },
    async getRun(runId) {
      const row = await db.selectFrom('runs').selectAll().where('run_id', '=', runId).executeTakeFirst();
      return row && mapRun(row);
    },
    async listSteps(runId) {
      const rows = await db
        .selectFrom('run_steps')
        .selectAll()
        .where('run_id', '=', runId)
        .orderBy('step_index')
        .execute();
      return expandPromptLogs(rows.map(mapStep), loadHistory);
    },
    async listRuns({ agentName, status, source, endUser, since, until, limit, offset }) {
      let query = db.selectFrom('runs').selectAll();
      if (agentName !== undefined) query = query.where('agent_name', '=', agentName);
      if (status !== undefined) query = query.where('status', '=', status);
      if (source !== undefined) query = query.where('source', '=', source);
      if (endUser !== undefined) query = query.where('end_user', '=', endUser);
      if (since !== undefined) query = query.where('started_at', '>=', since);
      if (until !== undefined) query = query.where('started_at', '<', until);
      const rows = await query
        .orderBy('started_at', 'desc')
        .orderBy('run_id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(mapRun);
    },
    async listChangedRuns({ since, runIds, limit }) {
      // Every branch has an index (status, started_at, the key): no scan of the whole table per tick.
      const rows = await db
        .selectFrom('runs')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('status', 'in', [...ACTIVE_RUN_STATUSES]),
            eb('started_at', '>=', since),
            ...(runIds.length > 0 ? [eb('run_id', 'in', runIds)] : []),
          ]),
        )
        .orderBy('started_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map(mapRun);
    },
    async getEventLog(runId) {
      const row = await db.selectFrom('run_event_logs').select('events').where('run_id', '=', runId).executeTakeFirst();
      return row && (JSON.parse(row.events) as RunEvent[]);
    },
  };
}

// PostgreSQL may hand back numeric columns as strings (bigint, numeric); normalise once here.
function mapRun(row: Selectable<Database['runs']>): RunRecord {
  // Coordination columns are the store's business, not part of the run as others see it.
  const { control_request: _request, heartbeat_at: _heartbeat, resume_input: _input, triggered_by, ...run } = row;
  return {
    ...run,
    triggered_by: triggered_by ? (JSON.parse(triggered_by) as RunTrigger) : null,
    attempts: Number(row.attempts),
    resumed_from_step: row.resumed_from_step === null ? null : Number(row.resumed_from_step),
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
