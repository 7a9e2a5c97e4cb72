import { TaskState, type TaskStatus } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutionEvent } from '@a2a-js/sdk/server';
import type { RunResult } from '../../agents/index.js';
import type { RunEvent } from '../../bus/index.js';
import { createAnswerArtifact } from './a2a-messages.js';
import { createStatus, mapRunEnd, type TaskEnd, type TaskIds } from './task-end.js';

// Field by field, not `{ ...ids, … }`: once optimised, that spread gives every update a V8 map of its own.
const statusEvent = (ids: TaskIds, status: TaskStatus) =>
  AgentEvent.statusUpdate({ taskId: ids.taskId, contextId: ids.contextId, status, metadata: undefined });

/**
 * Turns one run's events into A2A task updates: text deltas become chunks of the `answer` artifact,
 * a tool call a working status naming the tool (never its arguments), and the run's end the final
 * status with the whole answer (or the error) as its message.
 */
export function createRunEventMapper(ids: TaskIds) {
  let streamed = false;
  const chunk = (text: string, append: boolean, lastChunk: boolean) =>
    AgentEvent.artifactUpdate({
      taskId: ids.taskId,
      contextId: ids.contextId,
      artifact: createAnswerArtifact(text),
      append,
      lastChunk,
      metadata: undefined,
    });

  return {
    map(event: RunEvent): AgentExecutionEvent[] {
      switch (event.type) {
        case 'text-delta': {
          if (!event.delta) return [];
          const append = streamed;
          streamed = true;
          return [chunk(event.delta, append, false)];
        }
        case 'tool-call':
          return [statusEvent(ids, createStatus(ids, TaskState.TASK_STATE_WORKING, `Using the tool ${event.name}`))];
        case 'run-start':
        case 'step-start':
        case 'step-restarted':
        case 'tool-result':
        case 'guardrail-flag':
        case 'run-error':
        case 'run-end':
          return [];
        default:
          return assertNever(event);
      }
    },

    /** The last updates of the task, and its end as the task store keeps it. */
    finish(result: RunResult): { events: AgentExecutionEvent[]; end: TaskEnd } {
      const errorMessage = result.status === 'completed' ? null : result.error.message;
      // A finished run (completed, failed or cancelled) always ends its task.
      const end = mapRunEnd(ids, { status: result.status, output: result.output, errorMessage })!;
      const events: AgentExecutionEvent[] = [];
      // Marks the answer complete for clients that assemble chunks; a run that streamed nothing sends it whole.
      if (result.status === 'completed' && (streamed || result.output))
        events.push(chunk(streamed ? '' : result.output, streamed, true));
      events.push(statusEvent(ids, end.status));
      return { events, end };
    },
  };
}

function assertNever(event: never): never {
  throw new Error(`Unhandled run event ${JSON.stringify(event)}`);
}
