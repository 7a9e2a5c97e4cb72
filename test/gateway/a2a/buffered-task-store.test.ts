import { Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import type { A2aTaskStore } from '../../../src/gateway/a2a/a2a-task.store.js';
import { createBufferedTaskStore } from '../../../src/gateway/a2a/buffered-task-store.js';

const context = new ServerCallContext();

function memoryStore() {
  const rows = new Map<string, Task>();
  const writes: string[] = [];
  const store: A2aTaskStore = {
    async save(_agent, task) {
      writes.push(String((Task.toJSON(task) as { status?: { state?: string } }).status?.state ?? 'none'));
      rows.set(task.id, structuredClone(task));
    },
    async get(_agent, id) {
      return rows.get(id);
    },
    async list() {
      return { tasks: [...rows.values()], nextPageToken: '', pageSize: rows.size, totalSize: rows.size };
    },
  };
  return { store, rows, writes };
}

const withChunks = (state: string, chunks: string[]) =>
  Task.fromJSON({
    id: 't',
    contextId: 'c',
    status: { state },
    artifacts: [{ artifactId: 'answer', parts: chunks.map((text) => ({ text })) }],
    metadata: { run_id: 'run_1' },
  });

describe('buffered A2A task store', () => {
  it('writes a streaming task only when its state changes, and joins its text chunks', async () => {
    const { store, rows, writes } = memoryStore();
    const tasks = createBufferedTaskStore({ agentName: 'helper', store });
    tasks.track('t');
    await tasks.save(withChunks('TASK_STATE_WORKING', []), context);
    for (let i = 1; i <= 50; i += 1)
      await tasks.save(
        withChunks(
          'TASK_STATE_WORKING',
          Array.from({ length: i }, (_, n) => `${n},`),
        ),
        context,
      );
    expect(writes).toEqual(['TASK_STATE_WORKING']);
    // Reads see the buffered latest state, as one text part.
    const live = await tasks.load('t', context);
    expect(live?.artifacts[0].parts).toHaveLength(1);

    await tasks.save(withChunks('TASK_STATE_COMPLETED', ['all', ' done']), context);
    expect(writes).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    expect(rows.get('t')?.artifacts[0].parts.map((part) => part.content)).toEqual([
      { $case: 'text', value: 'all done' },
    ]);
  });

  it('writes what is buffered when the executor returns, and writes through afterwards', async () => {
    const { store, writes } = memoryStore();
    const tasks = createBufferedTaskStore({ agentName: 'helper', store });
    tasks.track('t');
    await tasks.save(withChunks('TASK_STATE_WORKING', ['a']), context);
    await tasks.save(withChunks('TASK_STATE_WORKING', ['a', 'b']), context);
    await tasks.release('t');
    expect(writes).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_WORKING']);
    await tasks.save(withChunks('TASK_STATE_WORKING', ['a', 'b', 'c']), context);
    expect(writes).toHaveLength(3);
  });

  it("writes the executor's end at once and ignores the SDK's later, possibly stale, saves", async () => {
    const { store, rows, writes } = memoryStore();
    const tasks = createBufferedTaskStore({ agentName: 'helper', store });
    tasks.track('t');
    await tasks.save(withChunks('TASK_STATE_WORKING', ['half']), context);
    const done = withChunks('TASK_STATE_COMPLETED', ['whole answer']);
    await tasks.release('t', { status: done.status!, answer: done.artifacts[0] });
    await tasks.save(withChunks('TASK_STATE_WORKING', ['half', ' more']), context);
    expect(writes).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    expect(rows.get('t')?.artifacts[0].parts.map((part) => part.content)).toEqual([
      { $case: 'text', value: 'whole answer' },
    ]);
    expect((await tasks.load('t', context))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('settles a stored unfinished task from its run when no executor here runs it', async () => {
    const { store, rows } = memoryStore();
    rows.set('t', withChunks('TASK_STATE_WORKING', ['par']));
    const tasks = createBufferedTaskStore({
      agentName: 'helper',
      store,
      reconcile: async (task) => ({
        ...task,
        status: { state: TaskState.TASK_STATE_FAILED, message: undefined, timestamp: 'now' },
      }),
    });
    expect((await tasks.load('t', context))?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(rows.get('t')?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  });

  it('drops writes once closed', async () => {
    const { store, writes } = memoryStore();
    const tasks = createBufferedTaskStore({ agentName: 'helper', store });
    tasks.close();
    await tasks.save(withChunks('TASK_STATE_COMPLETED', ['x']), context);
    expect(writes).toEqual([]);
  });
});
