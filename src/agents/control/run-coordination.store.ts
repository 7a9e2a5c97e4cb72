import type { Kysely } from 'kysely';
import type { RunControlCommand } from '../../bus/index.js';
import type { Database } from '../../db/index.js';
import { ACTIVE_RUN_STATUSES, type ClaimedRun, type ResumeInput, type RunStatus } from '../records/run.types.js';

/** What the executing process reads back to learn of commands that other processes persisted. */
/** Runs started by the trigger inbox: interrupted on a crash and run again by the inbox's retry, not resumed. */
const INBOX_RETRIED_SOURCES = ['webhook', 'poller', 'listener'] as const;

export interface RunControlState {
  status: RunStatus;
  control_request: RunControlCommand | null;
}

/** The queries that let several processes steer the same runs through the shared store. */
export interface RunCoordinationQueries {
  /** Moves a run between running and paused; never touches a run that has ended. */
  setActiveStatus(runId: string, status: 'running' | 'paused'): Promise<void>;
  /** Persists a command for a run that has not ended (and whose cancel is not pending); false otherwise. */
  requestControl(runId: string, command: RunControlCommand): Promise<boolean>;
  controlStates(runIds: string[]): Promise<Map<string, RunControlState>>;
  /** Marks the runs as alive at `now`. */
  touch(runIds: string[], now: string): Promise<void>;
  /** Gives the runs up (their process leaves): the next sweep of any process takes them as orphans at once. */
  release(runIds: string[]): Promise<void>;
  /**
   * Ends runs left running or paused by a process that died: every such run, or only those whose
   * heartbeat is older than `staleBefore`. Their steps and tokens are summed from the recorded steps.
   * Returns the ids of the runs it ended.
   */
  interruptOrphans(options: { now: string; staleBefore?: string; runIds?: string[] }): Promise<string[]>;
  /**
   * Takes over runs left running or paused by a dead process (heartbeat older than `staleBefore`) that
   * can be resumed: stored with their input, no cancel pending. One conditional update, so of several
   * processes sweeping at once only one gets each run; it counts an attempt and the steps it resumes from.
   */
  claimOrphans(options: { now: string; staleBefore: string }): Promise<ClaimedRun[]>;
}

// The run as others see it (records/run.types.ts RunRecord): the coordination columns stay here.
const RUN_RECORD_COLUMNS = [
  'run_id',
  'agent_name',
  'status',
  'source',
  'session_id',
  'model',
  'started_at',
  'finished_at',
  'total_tokens',
  'input_tokens',
  'output_tokens',
  'cost_usd',
  'steps',
  'output',
  'error_code',
  'error_message',
  'token_id',
  'attempts',
  'resumed_from_step',
] as const;

export function createRunCoordinationQueries(db: Kysely<Database>): RunCoordinationQueries {
  return {
    async setActiveStatus(runId, status) {
      await db
        .updateTable('runs')
        .set({ status })
        .where('run_id', '=', runId)
        .where('status', 'in', ACTIVE_RUN_STATUSES)
        .execute();
    },
    async requestControl(runId, command) {
      const result = await db
        .updateTable('runs')
        .set({ control_request: command })
        .where('run_id', '=', runId)
        .where('status', 'in', ACTIVE_RUN_STATUSES)
        .where((eb) => eb.or([eb('control_request', 'is', null), eb('control_request', '!=', 'cancel')]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async controlStates(runIds) {
      if (runIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('runs')
        .select(['run_id', 'status', 'control_request'])
        .where('run_id', 'in', runIds)
        .execute();
      return new Map(rows.map((row) => [row.run_id, { status: row.status, control_request: row.control_request }]));
    },
    async touch(runIds, now) {
      if (runIds.length === 0) return;
      await db
        .updateTable('runs')
        .set({ heartbeat_at: now })
        .where('run_id', 'in', runIds)
        .where('status', 'in', ACTIVE_RUN_STATUSES)
        .execute();
    },
    async release(runIds) {
      if (runIds.length === 0) return;
      await db
        .updateTable('runs')
        .set({ heartbeat_at: null })
        .where('run_id', 'in', runIds)
        .where('status', 'in', ACTIVE_RUN_STATUSES)
        .execute();
    },
    async claimOrphans({ now, staleBefore }) {
      const rows = await db
        .updateTable('runs')
        .set((eb) => ({
          heartbeat_at: now,
          attempts: eb('attempts', '+', 1),
          resumed_from_step: eb
            .selectFrom('run_steps')
            .whereRef('run_steps.run_id', '=', 'runs.run_id')
            .select((s) => s.fn.countAll<number>().as('n')),
        }))
        .where('status', 'in', ACTIVE_RUN_STATUSES)
        .where('resume_input', 'is not', null)
        // The trigger inbox retries its own runs (at least once): resuming them too would run a delivery twice.
        .where('source', 'not in', INBOX_RETRIED_SOURCES)
        .where((eb) => eb.or([eb('control_request', 'is', null), eb('control_request', '!=', 'cancel')]))
        .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)]))
        .returning([...RUN_RECORD_COLUMNS, 'resume_input'])
        .execute();
      return rows.map(({ resume_input, ...run }) => ({
        run: {
          ...run,
          total_tokens: Number(run.total_tokens),
          input_tokens: Number(run.input_tokens),
          output_tokens: Number(run.output_tokens),
          cost_usd: Number(run.cost_usd),
          steps: Number(run.steps),
          attempts: Number(run.attempts),
          resumed_from_step: run.resumed_from_step === null ? null : Number(run.resumed_from_step),
        },
        input: JSON.parse(resume_input ?? '{}') as ResumeInput,
        paused: run.status === 'paused',
      }));
    },
    async interruptOrphans({ now, staleBefore, runIds }) {
      let query = db
        .updateTable('runs')
        .set((eb) => {
          const steps = () => eb.selectFrom('run_steps').whereRef('run_steps.run_id', '=', 'runs.run_id');
          return {
            status: 'interrupted' as const,
            finished_at: now,
            error_code: 'interrupted',
            error_message: 'The server running this run stopped before it finished',
            steps: steps().select((s) => s.fn.countAll<number>().as('n')),
            input_tokens: steps().select((s) => s.fn.coalesce(s.fn.sum<number>('input_tokens'), s.lit(0)).as('n')),
            output_tokens: steps().select((s) => s.fn.coalesce(s.fn.sum<number>('output_tokens'), s.lit(0)).as('n')),
            total_tokens: steps().select((s) =>
              s.fn
                .coalesce(s(s.fn.sum<number>('input_tokens'), '+', s.fn.sum<number>('output_tokens')), s.lit(0))
                .as('n'),
            ),
            cost_usd: steps().select((s) => s.fn.coalesce(s.fn.sum<number>('cost_usd'), s.lit(0)).as('n')),
          };
        })
        .where('status', 'in', ACTIVE_RUN_STATUSES);
      if (runIds !== undefined) query = query.where('run_id', 'in', runIds.length > 0 ? runIds : ['']);
      if (staleBefore !== undefined)
        query = query.where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)]));
      const rows = await query.returning('run_id').execute();
      return rows.map((row) => row.run_id);
    },
  };
}
