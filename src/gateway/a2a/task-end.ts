import { TaskState, type Artifact, type Task, type TaskStatus } from '@a2a-js/sdk';
import type { RunStatus } from '../../agents/index.js';
import { isoNow } from '../../ids.js';
import { createAgentMessage, createAnswerArtifact } from './a2a-messages.js';

export interface TaskIds {
  taskId: string;
  contextId: string;
}

/** How a task ended: its final status and, for a completed run, the whole answer. */
export interface TaskEnd {
  status: TaskStatus;
  answer?: Artifact;
}

/** Run statuses that end a task (with the answer or the error as the status message); running and paused runs leave it working. */
export function mapRunEnd(
  ids: TaskIds,
  run: { status: RunStatus; output: string; errorMessage: string | null; finishedAt?: string },
): TaskEnd | undefined {
  const end = (state: TaskState, text: string, answer?: Artifact): TaskEnd => ({
    status: createStatus(ids, state, text, run.finishedAt),
    answer,
  });
  switch (run.status) {
    case 'completed':
      return end(TaskState.TASK_STATE_COMPLETED, run.output, run.output ? createAnswerArtifact(run.output) : undefined);
    case 'cancelled':
      return end(TaskState.TASK_STATE_CANCELED, run.errorMessage ?? 'The task was cancelled');
    case 'failed':
    case 'interrupted':
      return end(TaskState.TASK_STATE_FAILED, run.errorMessage ?? `The run ended ${run.status}`);
    // input_required: the executor wrote the question when the run ended; the run record cannot rebuild it.
    case 'running':
    case 'paused':
    case 'input_required':
      return undefined;
  }
}

export function createStatus(ids: TaskIds, state: TaskState, text?: string, timestamp = isoNow()): TaskStatus {
  return { state, message: text === undefined ? undefined : createAgentMessage(text, ids), timestamp };
}

/** The task with its final status (kept in its history too, once) and the whole answer in place of the chunks seen so far. */
export function applyTaskEnd(task: Task, end: TaskEnd): Task {
  const message = end.status.message;
  const history =
    message && !task.history.some((entry) => entry.messageId === message.messageId)
      ? [...task.history, message]
      : task.history;
  const artifacts = end.answer
    ? [...task.artifacts.filter((artifact) => artifact.artifactId !== end.answer!.artifactId), end.answer]
    : task.artifacts;
  return structuredClone({ ...task, status: end.status, history, artifacts });
}
