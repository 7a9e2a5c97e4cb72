import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { isoNow } from '../../ids.js';
import { mergeTextParts } from './a2a-messages.js';
import type { A2aTaskStore, TaskVisibility } from './a2a-task.store.js';
import { ownerOfContext, visibilityOf } from './call-context.js';
import { applyTaskEnd, type TaskEnd } from './task-end.js';

const TERMINAL_STATES: readonly TaskState[] = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
];

/** How long a task stays in memory after its executor returned, for the SDK to apply the last events. */
const RELEASED_TASK_TTL_MS = 30_000;

export function isTerminalTaskState(state: TaskState | undefined): boolean {
  return state !== undefined && TERMINAL_STATES.includes(state);
}

/** The SDK's TaskStore for one agent, plus the executor's hooks that bracket a task's execution. */
export interface BufferedTaskStore extends TaskStore {
  /** The executor starts the task here: its saves are buffered until it ends. */
  track(taskId: string): void;
  /**
   * The executor returned. With the task's end, that end is written at once: the SDK applies the
   * last events only while a client is connected, and a streaming client may have left.
   */
  release(taskId: string, end?: TaskEnd): Promise<void>;
  /**
   * The database is about to close: later writes are dropped and reads answer from memory only. What
   * the writes would have said is in the run record, and reading the task after a restart takes it
   * from there (see reconcile-task.ts).
   */
  close(): void;
  /** `owner`'s tasks of the context that wait for input (a question the caller has not answered). */
  waitingIn(contextId: string, owner: string): Promise<Task[]>;
  /** Whether the task is `owner`'s; undefined when there is no such task (yet). */
  isOwnedBy(taskId: string, owner: string): Promise<boolean | undefined>;
}

export interface BufferedTaskStoreOptions {
  agentName: string;
  store: A2aTaskStore;
  /** Brings a stored, unfinished task that no executor here is running up to date (its run may have ended); undefined when unchanged. */
  reconcile?: (task: Task) => Promise<Task | undefined>;
}

interface Entry {
  task: Task;
  /** Who sent the task (auth ownerOf), from the SDK's first save of it. */
  owner: string;
  persistedState: TaskState | undefined;
  dirty: boolean;
  /** Written from the executor's TaskEnd: later saves from the SDK only repeat it (or are stale). */
  ended?: boolean;
  evict?: NodeJS.Timeout;
}

/**
 * The SDK saves the whole task after every event, one per streamed text chunk. While this process
 * executes a task, those saves stay in memory and reach the database only when the task's state
 * changes, when it ends and when its executor returns: a streamed answer costs a few writes, not
 * hundreds. Other replicas may therefore read a running task's artifacts a little behind, never its state.
 */
export function createBufferedTaskStore({ agentName, store, reconcile }: BufferedTaskStoreOptions): BufferedTaskStore {
  const executing = new Set<string>();
  const buffered = new Map<string, Entry>();
  let closed = false;
  const write = async (task: Task, owner: string) => {
    if (!closed) await store.save(agentName, task, isoNow(), owner);
  };
  const forget = (taskId: string) => {
    clearTimeout(buffered.get(taskId)?.evict);
    buffered.delete(taskId);
  };

  return {
    // A task resumed after input-required starts over: what was buffered for its previous run is done.
    track(taskId) {
      forget(taskId);
      executing.add(taskId);
    },

    async release(taskId, end) {
      executing.delete(taskId);
      const entry = buffered.get(taskId);
      // Without an entry the SDK has not applied even the first event: it will write every event itself.
      if (!entry) return;
      // The SDK may still be applying the last events (or its client left and it never will).
      entry.evict = setTimeout(() => buffered.delete(taskId), RELEASED_TASK_TTL_MS).unref();
      if (end && !isTerminalTaskState(end.status.state)) {
        // Waiting for input: written now, and the next message on the task resumes it (so nothing is kept as ended).
        const task = applyTaskEnd(entry.task, end);
        forget(taskId);
        await write(task, entry.owner);
      } else if (end) {
        Object.assign(entry, { task: applyTaskEnd(entry.task, end), ended: true, dirty: false });
        await write(entry.task, entry.owner);
      } else if (entry.dirty) {
        entry.dirty = false;
        await write(entry.task, entry.owner);
      }
    },

    // The owner is written with the task's first row only; later saves never change it.
    async save(task, context?: ServerCallContext) {
      if (buffered.get(task.id)?.ended) return;
      const normalized = normalizeTask(task);
      const state = normalized.status?.state;
      const entry = buffered.get(task.id);
      const owner = entry?.owner ?? ownerOfContext(context);
      if (isTerminalTaskState(state) || (!entry && !executing.has(task.id))) {
        forget(task.id);
        await write(normalized, owner);
        return;
      }
      const mustWrite = !entry || entry.persistedState !== state || !executing.has(task.id);
      // Recorded before the write is awaited, so a release() meanwhile sees the latest task.
      buffered.set(task.id, { task: normalized, owner, persistedState: state, dirty: !mustWrite, evict: entry?.evict });
      if (mustWrite) await write(normalized, owner);
    },

    // Another principal's task reads as absent: the SDK answers TaskNotFound, as for an unknown id.
    async load(taskId, context?: ServerCallContext) {
      const visibility = visibilityOf(context);
      const entry = buffered.get(taskId);
      if (entry) return sees(visibility, entry.owner) ? structuredClone(entry.task) : undefined;
      if (closed) return undefined;
      const stored = await store.get(agentName, taskId, visibility);
      if (!stored || executing.has(taskId) || isTerminalTaskState(stored.status?.state) || !reconcile) return stored;
      const updated = await reconcile(stored);
      if (!updated) return stored;
      // An update of an existing row: the owner passed here is not written.
      await write(updated, ownerOfContext(context));
      return updated;
    },

    list(params: ListTasksRequest, context?: ServerCallContext): Promise<ListTasksResponse> {
      return store.list(agentName, params, visibilityOf(context));
    },

    close() {
      closed = true;
    },

    async waitingIn(contextId, owner) {
      const page = await store.list(
        agentName,
        {
          tenant: '',
          contextId,
          status: TaskState.TASK_STATE_INPUT_REQUIRED,
          pageSize: 20,
          pageToken: '',
          historyLength: 0,
          statusTimestampAfter: undefined,
          includeArtifacts: false,
        },
        { owner },
      );
      return page.tasks;
    },

    async isOwnedBy(taskId, owner) {
      const entry = buffered.get(taskId);
      if (entry) return entry.owner === owner;
      if (!(await store.get(agentName, taskId, 'all'))) return undefined;
      return (await store.get(agentName, taskId, { owner })) !== undefined;
    },
  };
}

/** A private copy whose streamed text chunks are joined, so what is stored reads back as whole text. */
function normalizeTask(task: Task): Task {
  const copy = structuredClone(task);
  copy.artifacts = copy.artifacts.map((artifact) => ({ ...artifact, parts: mergeTextParts(artifact.parts) }));
  return copy;
}

function sees(visibility: TaskVisibility, owner: string): boolean {
  return visibility === 'all' || visibility.owner === owner;
}
