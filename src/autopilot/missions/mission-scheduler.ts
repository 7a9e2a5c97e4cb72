import type { Clock } from '../autopilot.types.js';
import type { ExecutionStore } from '../execution/execution.store.js';
import type { MissionRunner } from '../execution/mission-runner.js';
import type { MissionStore } from './mission.store.js';
import type { MissionRecord } from './mission.types.js';
import { newestMissedTick, nextTick } from './next-run.js';
import { recordSkippedTick } from './record-skipped-tick.js';
import type { Logger } from '../../logger.js';

export interface ExecutionLease {
  intervalMs: number;
  staleMs: number;
}

export interface MissionSchedulerOptions {
  missions: MissionStore;
  executions: ExecutionStore;
  runner: MissionRunner;
  clock: Clock;
  /** How often to look for due missions; 0: only when tick() is called. */
  pollMs: number;
  log?: Pick<Logger, 'warn' | 'error'>;
}

/**
 * Fires due missions. A tick is claimed by a conditional update of the mission's next_run_at, so one
 * tick executes once however often tick() runs; the next run is computed from now, so ticks missed
 * while the server was down collapse into one execution, unless the newest of them is older than the
 * mission's catch-up window: then they are skipped and recorded.
 */
export interface MissionScheduler {
  /** Launches every due mission; resolves once they were claimed (not once they ended). Returns how many. */
  tick(): Promise<number>;
  /**
   * Recovers executions a stopped process left running, fires what is due and starts polling. Without `lease`
   * this process is its database's only one: every execution still running was its own, and is recovered at
   * once. With `lease` (a database shared by replicas) only executions whose lease lapsed are: this process
   * renews the lease of its own every `intervalMs` and recovers those older than `staleMs`, at start and then
   * every interval, so a live replica's execution is never taken and a dead one's always is.
   */
  start(options: { lease?: ExecutionLease }): Promise<void>;
  stop(): void;
  /** Resolves once every tick asked for so far has finished claiming. */
  settled(): Promise<void>;
}

export function createMissionScheduler(options: MissionSchedulerOptions): MissionScheduler {
  let timer: NodeJS.Timeout | undefined;
  let leaseTimer: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  async function fireDue(): Promise<number> {
    const now = options.clock();
    let launched = 0;
    for (const mission of await options.missions.listDue(now.toISOString())) {
      const tick = mission.next_run_at!;
      const next = mission.schedule ? nextTick(mission.schedule, now, mission.policy, mission.mission_id) : null;
      if (await skippedAsTooOld(mission, tick, next, now)) continue;
      if (!(await options.missions.claimTick(mission.mission_id, tick, next, now.toISOString()))) continue;
      options.runner.launch(
        { ...mission, status: 'running', next_run_at: next },
        mission.schedule ? 'schedule' : 'approve',
        tick,
      );
      launched += 1;
    }
    return launched;
  }

  async function skippedAsTooOld(
    mission: MissionRecord,
    tick: string,
    next: string | null,
    now: Date,
  ): Promise<boolean> {
    const window = mission.policy.catchup_window_seconds;
    if (!mission.schedule || window === null) return false;
    const { newest, missed } = newestMissedTick(mission.schedule, tick, now, mission.policy, mission.mission_id);
    if (now.getTime() - new Date(newest).getTime() <= window * 1000) return false;
    if (await options.missions.skipTick(mission.mission_id, tick, next, now.toISOString())) {
      const message = `${missed} tick(s) from ${tick} to ${newest} were missed; the newest is older than catchup_window_seconds (${window})`;
      await recordSkippedTick(options.executions, mission, tick, 'missed_tick', message, now.toISOString());
      options.log?.warn({ mission_id: mission.mission_id, missed }, 'missed ticks skipped');
    }
    return true;
  }

  async function recover(): Promise<void> {
    const now = options.clock().toISOString();
    await options.executions.interruptRunning(now);
    // Only called when this process is its database's only one: every mission still running was left by a stop.
    for (const mission of await options.missions.listByStatus('running')) {
      const id = mission.mission_id;
      // A one-off runs again from the start; a recurring one waits for its next tick.
      await options.missions.transition(
        id,
        ['running'],
        'scheduled',
        now,
        mission.schedule ? {} : { next_run_at: now },
      );
      options.log?.warn({ mission_id: id }, 'mission execution interrupted by a server stop');
    }
  }

  // The mission goes back to scheduled, as after a restart: a one-off fires again at once, a recurring one at
  // its next tick (the tick of the lost execution was claimed already).
  async function rescheduleInterrupted(missionId: string, now: string): Promise<void> {
    const mission = await options.missions.getById(missionId);
    if (!mission) return;
    await options.missions.settle(missionId, 'scheduled', now, mission.schedule ? {} : { next_run_at: now });
    options.log?.warn({ mission_id: missionId }, 'mission execution interrupted: its replica stopped');
  }

  // Of several replicas sweeping at once, the conditional update gives each lost execution to one of them.
  async function renewAndRecover(lease: ExecutionLease): Promise<void> {
    const now = options.clock();
    await options.executions.touch(options.runner.liveExecutions(), now.toISOString());
    const staleBefore = new Date(now.getTime() - lease.staleMs).toISOString();
    const lost = await options.executions.interruptStale(now.toISOString(), staleBefore);
    for (const { mission_id } of lost) await rescheduleInterrupted(mission_id, now.toISOString());
    if (lost.length > 0) await scheduler.tick();
  }

  const scheduler: MissionScheduler = {
    tick() {
      // Ticks run one after the other: overlapping ones would only race for the same claims.
      const next = queue.then(fireDue);
      queue = next.catch(() => undefined);
      return next;
    },
    async start({ lease }) {
      if (!lease) await recover();
      else {
        await renewAndRecover(lease);
        let busy = false;
        leaseTimer = setInterval(() => {
          // A slow database must not pile sweeps up.
          if (busy) return;
          busy = true;
          renewAndRecover(lease)
            .catch((error: unknown) => options.log?.error({ err: error }, 'mission execution lease failed'))
            .finally(() => (busy = false));
        }, lease.intervalMs);
        leaseTimer.unref();
      }
      await scheduler.tick();
      if (options.pollMs > 0) {
        timer = setInterval(
          () =>
            void scheduler
              .tick()
              .catch((error: unknown) => options.log?.error({ err: error }, 'mission scheduler tick failed')),
          options.pollMs,
        );
        timer.unref();
      }
    },
    stop() {
      clearInterval(timer);
      clearInterval(leaseTimer);
      timer = undefined;
      leaseTimer = undefined;
    },
    settled: async () => void (await queue),
  };
  return scheduler;
}
