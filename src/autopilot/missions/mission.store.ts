import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/index.js';
import type { MissionStatus } from '../autopilot.types.js';
import type { MissionRecord, SchedulePolicy } from './mission.types.js';

type MissionChanges = Partial<Pick<MissionRecord, 'next_run_at' | 'approved_at' | 'consecutive_failures'>>;

/** Persistence of missions. Every state move is a conditional update, so concurrent moves cannot both win. */
export interface MissionStore {
  insert(mission: MissionRecord): Promise<void>;
  /** A mission of this project; undefined for another project's. */
  get(projectId: string, missionId: string): Promise<MissionRecord | undefined>;
  getById(missionId: string): Promise<MissionRecord | undefined>;
  /** Newest first. */
  list(projectId: string): Promise<MissionRecord[]>;
  /** Moves the mission to `to` when it is in one of `from`; false when it was not. */
  transition(
    missionId: string,
    from: readonly MissionStatus[],
    to: MissionStatus,
    now: string,
    changes?: MissionChanges,
  ): Promise<boolean>;
  /** Claims one tick: scheduled (or, with overlap allow, running) → running only while next_run_at is still `tick`; false when another claim won. */
  claimTick(missionId: string, tick: string, nextRunAt: string | null, now: string): Promise<boolean>;
  /** Scheduled missions whose next_run_at has come, and running ones with overlap allow. */
  listDue(now: string): Promise<MissionRecord[]>;
  /** running → `to` once no execution of the mission is still running (the last one to end settles it). */
  settle(missionId: string, to: MissionStatus, now: string, changes?: MissionChanges): Promise<boolean>;
  listByStatus(status: MissionStatus): Promise<MissionRecord[]>;
  /** Replaces a draft's slots (and what follows from them); false when it is no longer a draft. */
  updateDraft(
    missionId: string,
    changes: Pick<MissionRecord, 'slots' | 'schedule' | 'budget_usd' | 'updated_at'>,
  ): Promise<boolean>;
  /** Replaces a mission's schedule policy (and, when given, its next run) while it is in one of `from`. */
  updatePolicy(
    missionId: string,
    from: readonly MissionStatus[],
    policy: SchedulePolicy,
    now: string,
    nextRunAt?: string | null,
  ): Promise<boolean>;
  /** failed/paused → running with the healing's changes applied, in one conditional update; false when it moved meanwhile. */
  reopenForHealing(
    missionId: string,
    changes: Partial<Pick<MissionRecord, 'blueprint_json' | 'slots' | 'budget_usd' | 'next_run_at'>>,
    now: string,
  ): Promise<boolean>;
  /** Moves next_run_at from `tick` to `next` without running (a skipped tick); false when another replica moved it. */
  skipTick(missionId: string, tick: string, next: string | null, now: string): Promise<boolean>;
}

export function createMissionStore(db: Kysely<Database>): MissionStore {
  return {
    async insert(mission) {
      const { policy, ...rest } = mission;
      await db
        .insertInto('missions')
        .values({ ...rest, ...policy, slots: JSON.stringify(mission.slots) })
        .execute();
    },
    async updatePolicy(missionId, from, policy, now, nextRunAt) {
      const result = await db
        .updateTable('missions')
        .set({ ...policy, updated_at: now, ...(nextRunAt === undefined ? {} : { next_run_at: nextRunAt }) })
        .where('mission_id', '=', missionId)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async reopenForHealing(missionId, changes, now) {
      const { slots, ...rest } = changes;
      const result = await db
        .updateTable('missions')
        .set({ ...rest, ...(slots ? { slots: JSON.stringify(slots) } : {}), status: 'running', updated_at: now })
        .where('mission_id', '=', missionId)
        .where('status', 'in', ['failed', 'paused'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async skipTick(missionId, tick, next, now) {
      const result = await db
        .updateTable('missions')
        .set({ next_run_at: next, updated_at: now })
        .where('mission_id', '=', missionId)
        .where('next_run_at', '=', tick)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async get(projectId, missionId) {
      const row = await db
        .selectFrom('missions')
        .selectAll()
        .where('mission_id', '=', missionId)
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      return row && mapMission(row);
    },
    async getById(missionId) {
      const row = await db.selectFrom('missions').selectAll().where('mission_id', '=', missionId).executeTakeFirst();
      return row && mapMission(row);
    },
    async list(projectId) {
      const rows = await db
        .selectFrom('missions')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at', 'desc')
        .orderBy('mission_id', 'desc')
        .execute();
      return rows.map(mapMission);
    },
    async transition(missionId, from, to, now, changes = {}) {
      const result = await db
        .updateTable('missions')
        .set({ status: to, updated_at: now, ...changes })
        .where('mission_id', '=', missionId)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async claimTick(missionId, tick, nextRunAt, now) {
      const result = await db
        .updateTable('missions')
        .set({ status: 'running', next_run_at: nextRunAt, updated_at: now })
        .where('mission_id', '=', missionId)
        .where((eb) =>
          eb.or([eb('status', '=', 'scheduled'), eb.and([eb('status', '=', 'running'), eb('overlap', '=', 'allow')])]),
        )
        .where('next_run_at', '=', tick)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async listDue(now) {
      const rows = await db
        .selectFrom('missions')
        .selectAll()
        .where((eb) =>
          eb.or([eb('status', '=', 'scheduled'), eb.and([eb('status', '=', 'running'), eb('overlap', '=', 'allow')])]),
        )
        .where('next_run_at', '<=', now)
        .orderBy('next_run_at')
        .execute();
      return rows.map(mapMission);
    },
    async settle(missionId, to, now, changes = {}) {
      // Executions are finished before they settle, so whichever ends last sees no other one running.
      const result = await db
        .updateTable('missions')
        .set({ status: to, updated_at: now, ...changes })
        .where('mission_id', '=', missionId)
        .where('status', '=', 'running')
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('mission_executions')
                .select('execution_id')
                .where('mission_executions.mission_id', '=', missionId)
                .where('mission_executions.status', '=', 'running'),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async listByStatus(status) {
      return (await db.selectFrom('missions').selectAll().where('status', '=', status).execute()).map(mapMission);
    },
    async updateDraft(missionId, changes) {
      const result = await db
        .updateTable('missions')
        .set({ ...changes, slots: JSON.stringify(changes.slots) })
        .where('mission_id', '=', missionId)
        .where('status', '=', 'draft')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

// PostgreSQL may hand back double precision columns as strings; normalise once here.
function mapMission(row: Selectable<Database['missions']>): MissionRecord {
  const {
    timezone,
    overlap,
    catchup_window_seconds,
    pause_after_failures,
    jitter_seconds,
    consecutive_failures,
    ...rest
  } = row;
  const policy: SchedulePolicy = {
    timezone,
    overlap,
    catchup_window_seconds: catchup_window_seconds === null ? null : Number(catchup_window_seconds),
    pause_after_failures: pause_after_failures === null ? null : Number(pause_after_failures),
    jitter_seconds: Number(jitter_seconds),
  };
  return {
    ...rest,
    policy,
    consecutive_failures: Number(consecutive_failures),
    slots: JSON.parse(row.slots) as Record<string, unknown>,
    budget_usd: row.budget_usd === null ? null : Number(row.budget_usd),
  };
}
