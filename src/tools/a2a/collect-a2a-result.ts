import { TaskState, type Artifact, type Message, type Part, type StreamResponse, type Task } from '@a2a-js/sdk';

/** Where a remote task ended up, and its text: the answer when completed, the reason otherwise. */
export interface A2aTaskResult {
  taskId?: string;
  contextId?: string;
  state: 'completed' | 'failed' | 'canceled' | 'rejected' | 'input-required' | 'auth-required' | 'working';
  text: string;
}

const STATE_NAMES: Partial<Record<TaskState, A2aTaskResult['state']>> = {
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'canceled',
  [TaskState.TASK_STATE_REJECTED]: 'rejected',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'input-required',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'auth-required',
};

/** States after which a remote task sends nothing more for us (input or auth required wait for a human). */
const FINAL: readonly A2aTaskResult['state'][] = [
  'completed',
  'failed',
  'canceled',
  'rejected',
  'input-required',
  'auth-required',
];

export function textOfParts(parts: Part[]): string {
  return parts
    .map((part) =>
      part.content?.$case === 'text'
        ? part.content.value
        : part.content?.$case === 'data'
          ? JSON.stringify(part.content.value)
          : '',
    )
    .join('');
}

/**
 * Follows a remote task through its stream (or a single reply) the way the A2A spec defines updates:
 * artifact chunks are appended or replaced by id, the latest status wins. A reply that is a bare
 * message is a completed answer.
 */
export function createA2aResultCollector() {
  let taskId: string | undefined;
  let contextId: string | undefined;
  let state: TaskState = TaskState.TASK_STATE_WORKING;
  let statusMessage: Message | undefined;
  let reply: Message | undefined;
  const artifacts = new Map<string, Artifact>();

  let eventCount = 0;
  const addTask = (task: Task) => {
    taskId = task.id;
    contextId = task.contextId || contextId;
    state = task.status?.state ?? state;
    statusMessage = task.status?.message ?? statusMessage;
    for (const artifact of task.artifacts) artifacts.set(artifact.artifactId, structuredClone(artifact));
  };
  const addArtifact = (artifact: Artifact, append: boolean) => {
    const existing = artifacts.get(artifact.artifactId);
    artifacts.set(
      artifact.artifactId,
      existing && append ? { ...existing, parts: [...existing.parts, ...artifact.parts] } : structuredClone(artifact),
    );
  };

  return {
    addTask,
    addReply(result: Task | Message) {
      if ('messageId' in result) reply = result;
      else addTask(result);
    },
    add(event: StreamResponse) {
      eventCount += 1;
      const payload = event.payload;
      if (!payload) return;
      if (payload.$case === 'task') addTask(payload.value);
      else if (payload.$case === 'message') reply = payload.value;
      else if (payload.$case === 'statusUpdate') {
        taskId ??= payload.value.taskId;
        contextId ||= payload.value.contextId;
        state = payload.value.status?.state ?? state;
        statusMessage = payload.value.status?.message ?? statusMessage;
      } else if (payload.value.artifact) addArtifact(payload.value.artifact, payload.value.append);
    },
    get taskId() {
      return taskId;
    },
    /** Events added so far: a resubscription that adds none is not tried again. */
    get eventCount() {
      return eventCount;
    },
    get done(): boolean {
      return reply !== undefined || FINAL.includes(this.result().state);
    },
    result(): A2aTaskResult {
      if (reply) return { taskId, contextId, state: 'completed', text: textOfParts(reply.parts) };
      const answer = [...artifacts.values()].map((artifact) => textOfParts(artifact.parts)).join('\n');
      const status = statusMessage ? textOfParts(statusMessage.parts) : '';
      const name = STATE_NAMES[state] ?? 'working';
      return { taskId, contextId, state: name, text: name === 'completed' ? answer || status : status };
    },
  };
}
