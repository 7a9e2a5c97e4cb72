import type { RunService } from '../../agents/index.js';
import { AppError } from '../../errors.js';
import { createId } from '../../ids.js';
import type { Clock, ExecutionStatus, ExecutionTrigger } from '../autopilot.types.js';
import type { Blueprint } from '../blueprints/blueprint.schema.js';
import { classifyFailure } from '../healing/classify-failure.js';
import { executeGraph, type StepLearning } from './execute-graph.js';
import type { ExecutionStore } from './execution.store.js';
import type { MissionStore } from '../missions/mission.store.js';
import type { MissionRecord } from '../missions/mission.types.js';
import type { NodeAgents } from './node-agents.js';
import { nextTick } from '../missions/next-run.js';
import { recordSkippedTick } from '../missions/record-skipped-tick.js';
import type { NodeRunSettings } from './run-node.js';
import type { Logger } from '../../logger.js';

export interface MissionRunnerOptions {
  runs: RunService;
  nodeAgents: NodeAgents;
  missions: MissionStore;
  executions: ExecutionStore;
  settings: NodeRunSettings;
  clock: Clock;
  /** Re-validates the stored blueprint against today's tools and models; throws 400 invalid_blueprint. */
  loadBlueprint(mission: MissionRecord): Blueprint;
  learning?: StepLearning;
  /** Called once a failed execution has settled its mission (autopilot.auto_heal). */
  onFailed?(missionId: string): Promise<void>;
  log?: Pick<Logger, 'error'>;
}

/** Executes missions that were moved to `running`, in the background; knows which are live in this process. */
export interface MissionRunner {
  /** `resumeFrom`: an execution whose completed steps are kept (a healing re-run starts at its failed step). */
  launch(mission: MissionRecord, trigger: ExecutionTrigger, scheduledFor: string | null, resumeFrom?: string): void;
  /** Cancels the live execution of a mission (DELETE). */
  cancel(missionId: string): void;
  /** The executions running in this process (their lease is renewed in multi-process mode). */
  liveExecutions(): string[];
  /** Resolves once every execution started so far has ended. */
  idle(): Promise<void>;
  /** Waits for executions; interrupts those still going after `timeoutMs` so they run again after a restart. */
  drain(timeoutMs: number): Promise<void>;
}

type StopReason = 'cancelled' | 'shutdown';

interface LiveExecution {
  controller: AbortController;
  reason?: StopReason;
  done: Promise<void>;
  /** Set once the execution's row is written. */
  executionId?: string;
}

export function createMissionRunner(options: MissionRunnerOptions): MissionRunner {
  // Executions live in this process, by mission: one at a time, except with overlap `allow`.
  const live = new Map<string, Set<LiveExecution>>();
  const entries = () => [...live.values()].flatMap((set) => [...set]);
  const now = () => options.clock().toISOString();

  async function execute(
    mission: MissionRecord,
    trigger: ExecutionTrigger,
    scheduledFor: string | null,
    entry: LiveExecution,
    resumeFrom?: string,
  ) {
    const executionId = createId('job');
    entry.executionId = executionId;
    const started = performance.now();
    const base = {
      execution_id: executionId,
      mission_id: mission.mission_id,
      project_id: mission.project_id,
      blueprint_id: mission.blueprint_id,
      trigger,
      scheduled_for: scheduledFor,
    };
    const inserted = await options.executions.insert({
      ...base,
      status: 'running',
      started_at: now(),
      finished_at: null,
      duration_ms: null,
      cost_usd: 0,
      error_code: null,
      error_message: null,
      failure_class: null,
    });
    if (!inserted) return void (await options.missions.transition(mission.mission_id, ['running'], 'scheduled', now()));
    let outcome: Awaited<ReturnType<typeof executeGraph>>;
    try {
      const blueprint = options.loadBlueprint(mission);
      const deps = {
        runs: options.runs,
        nodeAgents: options.nodeAgents,
        settings: options.settings,
        executions: options.executions,
        learning: options.learning,
        now,
      };
      const prior = resumeFrom ? await options.executions.listSteps(resumeFrom) : [];
      outcome = await executeGraph(deps, mission, blueprint, executionId, entry.controller.signal, prior);
    } catch (error) {
      outcome = { status: 'failed', costUsd: 0, error: error instanceof AppError ? error : internalError(error) };
    }
    // The run service cancels runs with code `shutdown` when the server stops: that is an interruption, not a DELETE.
    const shutdown = entry.reason === 'shutdown' || (entry.reason === undefined && outcome.error?.code === 'shutdown');
    const status: ExecutionStatus = outcome.status === 'cancelled' && shutdown ? 'interrupted' : outcome.status;
    const failureClass = outcome.status === 'failed' ? classifyFailure(outcome.error) : null;
    const finished = await options.executions.finish(executionId, {
      status,
      finished_at: now(),
      duration_ms: Math.round(performance.now() - started),
      cost_usd: outcome.costUsd,
      error_code: outcome.error?.code ?? null,
      error_message: outcome.error?.message ?? null,
      failure_class: failureClass,
    });
    // This process stalled past its lease and another replica took the execution for interrupted and
    // rescheduled the mission: the mission is no longer this execution's to settle.
    if (!finished) {
      options.log?.error(
        { mission_id: mission.mission_id, execution_id: executionId },
        'mission execution was taken over',
      );
      return;
    }
    await settleMission(mission, status, scheduledFor);
    if (status === 'failed') await options.onFailed?.(mission.mission_id);
  }

  // A DELETE already moved the mission to cancelled: these conditional moves then change nothing. Each
  // move also waits for the mission's other executions (overlap allow): the last one to end settles it.
  async function settleMission(mission: MissionRecord, status: ExecutionStatus, scheduledFor: string | null) {
    const id = mission.mission_id;
    const settle = options.missions.settle.bind(options.missions);
    if (status === 'interrupted') await settle(id, 'scheduled', now(), { next_run_at: scheduledFor ?? now() });
    else if (status === 'failed') await settleFailure(mission);
    else if (status === 'completed' && mission.schedule)
      await settle(id, 'scheduled', now(), { consecutive_failures: 0, next_run_at: await afterOverlap(mission) });
    else if (status === 'completed') await settle(id, 'completed', now(), { next_run_at: null });
    else await settle(id, 'cancelled', now(), { next_run_at: null });
  }

  // A recurring mission with pause_after_failures carries on after a failure, and pauses itself after N in a row.
  async function settleFailure(mission: MissionRecord) {
    const id = mission.mission_id;
    const limit = mission.policy.pause_after_failures;
    if (!mission.schedule || limit === null)
      return void (await options.missions.settle(id, 'failed', now(), { next_run_at: null }));
    const failures = mission.consecutive_failures + 1;
    if (failures >= limit) {
      await options.missions.settle(id, 'paused', now(), { consecutive_failures: failures });
      options.log?.error({ mission_id: id, failures }, 'mission paused after consecutive failures');
      return;
    }
    await options.missions.settle(id, 'scheduled', now(), {
      consecutive_failures: failures,
      next_run_at: await afterOverlap(mission),
    });
  }

  // A tick that came while the execution ran: `skip` records it and waits for the next; `buffer_one` runs it once now.
  async function afterOverlap(mission: MissionRecord): Promise<string | null | undefined> {
    const due = mission.next_run_at;
    if (!mission.schedule || !due || due > now() || mission.policy.overlap !== 'skip') return undefined;
    await recordSkippedTick(
      options.executions,
      mission,
      due,
      'overlap',
      'the previous execution was still running (overlap: skip)',
      now(),
    );
    return nextTick(mission.schedule, options.clock(), mission.policy, mission.mission_id);
  }

  return {
    launch(mission, trigger, scheduledFor, resumeFrom) {
      const entry: LiveExecution = { controller: new AbortController(), done: Promise.resolve() };
      entry.done = execute(mission, trigger, scheduledFor, entry, resumeFrom)
        .catch((error: unknown) =>
          options.log?.error({ err: error, mission_id: mission.mission_id }, 'mission execution could not be recorded'),
        )
        .finally(() => {
          const set = live.get(mission.mission_id);
          set?.delete(entry);
          if (set?.size === 0) live.delete(mission.mission_id);
        });
      live.set(mission.mission_id, (live.get(mission.mission_id) ?? new Set()).add(entry));
    },
    liveExecutions() {
      return entries().flatMap((entry) => (entry.executionId ? [entry.executionId] : []));
    },
    cancel(missionId) {
      for (const entry of live.get(missionId) ?? []) {
        entry.reason ??= 'cancelled';
        entry.controller.abort();
      }
    },
    async idle() {
      while (live.size > 0) await Promise.all(entries().map((entry) => entry.done));
    },
    async drain(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([this.idle(), timeout]);
      clearTimeout(timer);
      for (const entry of entries()) {
        entry.reason ??= 'shutdown';
        entry.controller.abort();
      }
      await this.idle();
    },
  };
}

function internalError(error: unknown): AppError {
  return new AppError({
    code: 'internal_error',
    message: (error as Error)?.message ?? String(error),
    cause: error,
  });
}
