import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import type { AgentExecutionEvent } from '@a2a-js/sdk/server';
import type { RunService } from '../../agents/index.js';
import type { RunEvent } from '../../bus/index.js';
import { isAppError } from '../../errors.js';
import { createInputRequiredStatus, readQuestion, type PendingInput } from './input-tools.js';
import { createRunEventMapper } from './map-run-events.js';
import { createStatus, mapRunEnd, type TaskIds } from './task-end.js';

export interface FollowRunOptions {
  runs: Pick<RunService, 'attach' | 'find'>;
  /** The agent's requires_input tools: a run that ends asking one leaves its task in input-required. */
  inputToolNames: ReadonlySet<string>;
}

/**
 * A task's updates read from its run's events on the run event bus, for a subscriber on a replica that
 * does not execute the run: the answer's chunks (from the run's start), then the task's final status
 * taken from the run's terminal event. It always ends: with the run, or with the run record's end when
 * the events stop short (the run was interrupted).
 */
export async function* followRun(task: Task, runId: string, options: FollowRunOptions): AsyncGenerator<StreamResponse> {
  const ids: TaskIds = { taskId: task.id, contextId: task.contextId };
  const mapper = createRunEventMapper(ids);
  const events = await options.runs.attach(runId);
  let terminal: Extract<RunEvent, { type: 'run-end' | 'run-error' }> | undefined;
  let asked: PendingInput | undefined;
  try {
    for await (const event of events ?? []) {
      if (event.type === 'tool-call' && options.inputToolNames.has(event.name))
        asked = { toolCallId: event.toolCallId, toolName: event.name, question: readQuestion(event.arguments) };
      if (event.type === 'run-end' || event.type === 'run-error') terminal = event;
      for (const update of mapper.map(event)) yield toStreamResponse(update);
    }
  } catch (error) {
    // The events lost some of the answer (events_lost): the task fails, saying where the whole answer is.
    if (!isAppError(error)) throw error;
    // This process leaves: the stream ends without a final status, and the client resubscribes elsewhere.
    if (error.code === 'run_handed_over') return;
    yield toStreamResponse(statusUpdate(ids, createStatus(ids, TaskState.TASK_STATE_FAILED, error.message)));
    return;
  }
  yield toStreamResponse(statusUpdate(ids, await finalStatus(ids, runId, terminal, asked, options)));
}

async function finalStatus(
  ids: TaskIds,
  runId: string,
  terminal: Extract<RunEvent, { type: 'run-end' | 'run-error' }> | undefined,
  asked: PendingInput | undefined,
  options: FollowRunOptions,
) {
  if (terminal?.type === 'run-end')
    return asked
      ? createInputRequiredStatus(ids, asked)
      : createStatus(ids, TaskState.TASK_STATE_COMPLETED, terminal.output);
  if (terminal?.type === 'run-error')
    return createStatus(
      ids,
      terminal.code === 'cancelled' ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_FAILED,
      terminal.message,
    );
  const run = (await options.runs.find(runId))?.run;
  const end = run && mapRunEnd(ids, { status: run.status, output: run.output ?? '', errorMessage: run.error_message });
  return end?.status ?? createStatus(ids, TaskState.TASK_STATE_FAILED, "The run's events ended before the run did");
}

function statusUpdate(ids: TaskIds, status: ReturnType<typeof createStatus>): AgentExecutionEvent {
  return { kind: 'statusUpdate', data: { taskId: ids.taskId, contextId: ids.contextId, status, metadata: undefined } };
}

function toStreamResponse(event: AgentExecutionEvent): StreamResponse {
  switch (event.kind) {
    case 'statusUpdate':
      return { payload: { $case: 'statusUpdate', value: event.data } };
    case 'artifactUpdate':
      return { payload: { $case: 'artifactUpdate', value: event.data } };
    case 'task':
      return { payload: { $case: 'task', value: event.data } };
    case 'message':
      return { payload: { $case: 'message', value: event.data } };
  }
}
