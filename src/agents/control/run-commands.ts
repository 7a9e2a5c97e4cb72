import type { RunControlCommand, RunEventBus } from '../../bus/index.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { RunControlState } from './run-coordination.store.js';

import type { LiveRun } from './run-handle.js';
import type { RunStore } from '../records/run.store.js';
import { isActiveRunStatus, type RunStatus } from '../records/run.types.js';
import type { Logger } from '../../logger.js';

/** The answer to pause/resume/cancel: the status the run has (or is moving to) after the command. */
export interface RunControlResult {
  run_id: string;
  status: RunStatus;
}

export interface RunCommandsDeps {
  live: ReadonlyMap<string, LiveRun>;
  store: RunStore;
  bus: RunEventBus;
  /** Other processes may execute runs (Redis configured): commands for them go over the bus and the store. */
  multiProcess: boolean;
  log?: Logger;
}

export interface RunCommands {
  /** 404 for an unknown run, 409 (with the current status) when its state does not allow the command. */
  control(runId: string, command: RunControlCommand): Promise<RunControlResult>;
  /** A command from the bus: applied when this process executes the run, ignored otherwise. */
  receive(runId: string, command: RunControlCommand): void;
  /** Applies the command another process persisted for a run executed here, if it changes anything. */
  reconcile(run: LiveRun, state: RunControlState | undefined): void;
}

const TARGET: Record<RunControlCommand, RunStatus> = { pause: 'paused', resume: 'running', cancel: 'cancelled' };
const ALLOWED_FROM: Record<RunControlCommand, readonly RunStatus[]> = {
  pause: ['running'],
  resume: ['paused'],
  cancel: ['running', 'paused'],
};
const DONE: Record<RunControlCommand, string> = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' };

function conflict(runId: string, status: RunStatus, command: RunControlCommand): ConflictError {
  return new ConflictError(`Run ${runId} is ${status}, so it cannot be ${DONE[command]}`, 'invalid_run_state', {
    status,
  });
}

function assertAllowed(runId: string, status: RunStatus, command: RunControlCommand): void {
  if (!ALLOWED_FROM[command].includes(status)) throw conflict(runId, status, command);
}

/** The status a stored run will have once the command persisted for it takes effect. */
function effectiveStatus({ status, control_request: request }: RunControlState): RunStatus {
  if (!isActiveRunStatus(status) || request === null) return status;
  return TARGET[request];
}

/** Applies a command to a run executed here; false when its state did not allow it. Pause and resume are stored at once. */
async function apply(run: LiveRun, command: RunControlCommand): Promise<boolean> {
  if (command === 'cancel') {
    const active = run.controller.status === 'running' || run.controller.status === 'paused';
    run.controller.cancel();
    return active;
  }
  const moved = command === 'pause' ? run.controller.pause() : run.controller.resume();
  if (moved) await run.writeStatus(command === 'pause' ? 'paused' : 'running');
  return moved;
}

export function createRunCommands(deps: RunCommandsDeps): RunCommands {
  const { live, store, bus, multiProcess } = deps;

  async function controlLocal(run: LiveRun, command: RunControlCommand): Promise<RunControlResult> {
    assertAllowed(run.runId, run.controller.status, command);
    // Persisted first, so that this process's own reconciling never undoes the command.
    if (multiProcess && !(await store.requestControl(run.runId, command)))
      await refuse(run.runId, run.controller.status, command);
    if (!(await apply(run, command))) assertAllowed(run.runId, run.controller.status, command);
    return { run_id: run.runId, status: TARGET[command] };
  }

  /** The store refused the request: the run ended, or another process's cancel is pending. */
  async function refuse(runId: string, known: RunStatus, command: RunControlCommand): Promise<never> {
    const now = (await store.controlStates([runId])).get(runId);
    throw conflict(runId, now ? effectiveStatus(now) : known, command);
  }

  async function controlRemote(runId: string, command: RunControlCommand): Promise<RunControlResult> {
    const state = (await store.controlStates([runId])).get(runId);
    if (!state) throw new NotFoundError(`No run with id "${runId}"`, 'run_not_found');
    const status = effectiveStatus(state);
    // Without Redis no other process executes runs: an active run that is not live here is an orphan.
    if (!multiProcess && isActiveRunStatus(status))
      throw new ConflictError(`Run ${runId} is not executing in this process`, 'invalid_run_state', { status });
    assertAllowed(runId, status, command);
    if (!(await store.requestControl(runId, command))) await refuse(runId, status, command);
    await bus.sendControl(runId, command);
    return { run_id: runId, status: TARGET[command] };
  }

  return {
    control(runId, command) {
      const run = live.get(runId);
      return run ? controlLocal(run, command) : controlRemote(runId, command);
    },
    receive(runId, command) {
      const run = live.get(runId);
      if (!run) return;
      apply(run, command).catch((error: unknown) =>
        deps.log?.error({ err: error, run_id: runId }, `could not apply ${command} to the run`),
      );
    },
    reconcile(run, state) {
      const request = state?.control_request;
      if (!request || !ALLOWED_FROM[request].includes(run.controller.status)) return;
      apply(run, request).catch((error: unknown) =>
        deps.log?.error({ err: error, run_id: run.runId }, `could not apply ${request} to the run`),
      );
    },
  };
}
