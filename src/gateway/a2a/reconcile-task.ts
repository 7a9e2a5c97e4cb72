import { TaskState, type Task } from '@a2a-js/sdk';
import type { RunService } from '../../agents/index.js';
import { applyTaskEnd, mapRunEnd } from './task-end.js';

/**
 * A stored task can miss its run's end: the process stopped mid-run (the run is then marked
 * interrupted), or the run executes in another process. The run record is the truth, so an
 * unfinished task whose run has ended takes the run's outcome when it is read.
 */
export function createTaskReconciler(
  runs: Pick<RunService, 'live' | 'find'>,
): (task: Task) => Promise<Task | undefined> {
  return async (task) => {
    const runId: unknown = task.metadata?.run_id;
    // Waiting for input, the task outlives its run (which ended asking): only the caller's answer moves it on.
    if (task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) return undefined;
    if (typeof runId !== 'string' || runs.live(runId)) return undefined;
    const run = (await runs.find(runId))?.run;
    if (!run) return undefined;
    const ids = { taskId: task.id, contextId: task.contextId };
    const end = mapRunEnd(ids, {
      status: run.status,
      output: run.output ?? '',
      errorMessage: run.error_message,
      finishedAt: run.finished_at ?? undefined,
    });
    return end && applyTaskEnd(task, end);
  };
}
