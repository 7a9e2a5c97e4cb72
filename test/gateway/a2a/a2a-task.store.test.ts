import { Task, TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../src/db/index.js';
import { createA2aTaskStore, type A2aTaskStore } from '../../../src/gateway/a2a/index.js';
import type { TaskVisibility } from '../../../src/gateway/a2a/a2a-task.store.js';
import { describeEachDialect, type TestDatabase } from '../../support/databases.js';

const task = (id: string, options: { state?: string; at?: string; context?: string; text?: string } = {}): Task =>
  Task.fromJSON({
    id,
    contextId: options.context ?? 'ctx-1',
    status: { state: options.state ?? 'TASK_STATE_COMPLETED', timestamp: options.at ?? '2030-01-01T00:00:00.000Z' },
    artifacts: [{ artifactId: 'answer', parts: [{ text: options.text ?? `answer of ${id}` }] }],
    history: [{ messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: 'question' }] }],
    metadata: { run_id: `run_${id}` },
  });

const listAll = (
  store: A2aTaskStore,
  agent: string,
  extra: Record<string, unknown> = {},
  visibility: TaskVisibility = 'all',
) =>
  store.list(
    agent,
    {
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
      ...extra,
    },
    visibility,
  );

await describeEachDialect('A2A task store', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let store: A2aTaskStore;
  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    store = createA2aTaskStore(database.db);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('saves, replaces and reads a task back exactly, scoped to its agent', async () => {
    await store.save(
      'helper',
      task('t-1', { state: 'TASK_STATE_WORKING', text: 'partial' }),
      '2030-01-01T00:00:00.000Z',
      'token:a',
    );
    await store.save('helper', task('t-1', { text: 'final' }), '2030-01-01T00:00:01.000Z', 'token:a');
    const read = await store.get('helper', 't-1', 'all');
    expect(read).toEqual(task('t-1', { text: 'final' }));
    expect(await store.get('other', 't-1', 'all')).toBeUndefined();
    // Another agent cannot take a task id over.
    await store.save('other', task('t-1', { text: 'hijacked' }), '2030-01-01T00:00:02.000Z', 'token:a');
    expect((await store.get('helper', 't-1', 'all'))?.artifacts[0].parts[0].content).toEqual({
      $case: 'text',
      value: 'final',
    });
  });

  it('lists newest status first, page by page, with filters', async () => {
    for (let i = 0; i < 5; i += 1) {
      await store.save(
        'lister',
        task(`l-${i}`, {
          at: `2030-02-0${i + 1}T00:00:00.000Z`,
          context: i % 2 ? 'odd' : 'even',
          state: i === 4 ? 'TASK_STATE_FAILED' : undefined,
        }),
        '2030-01-01T00:00:00.000Z',
        'token:a',
      );
    }
    const first = await listAll(store, 'lister', { pageSize: 2 });
    expect(first.tasks.map((item) => item.id)).toEqual(['l-4', 'l-3']);
    expect(first.totalSize).toBe(5);
    expect(first.tasks[0].artifacts).toEqual([]);
    const second = await listAll(store, 'lister', { pageSize: 2, pageToken: first.nextPageToken });
    expect(second.tasks.map((item) => item.id)).toEqual(['l-2', 'l-1']);
    const third = await listAll(store, 'lister', { pageSize: 2, pageToken: second.nextPageToken });
    expect(third.tasks.map((item) => item.id)).toEqual(['l-0']);
    expect(third.nextPageToken).toBe('');

    expect((await listAll(store, 'lister', { contextId: 'odd' })).tasks.map((item) => item.id)).toEqual(['l-3', 'l-1']);
    expect(
      (await listAll(store, 'lister', { status: TaskState.TASK_STATE_FAILED })).tasks.map((item) => item.id),
    ).toEqual(['l-4']);
    expect((await listAll(store, 'lister', { statusTimestampAfter: '2030-02-03T12:00:00Z' })).totalSize).toBe(2);
    expect((await listAll(store, 'lister', { includeArtifacts: true, pageSize: 1 })).tasks[0].artifacts).toHaveLength(
      1,
    );
  });

  it('shows a task to its owner and to "all" (operators), never to another owner, who cannot take it over either', async () => {
    await store.save('owned', task('o-1'), '2030-01-01T00:00:00.000Z', 'token:a');
    await store.save('owned', task('o-2'), '2030-01-01T00:00:00.000Z', 'token:b');
    expect(await store.get('owned', 'o-1', { owner: 'token:a' })).toEqual(task('o-1'));
    expect(await store.get('owned', 'o-1', { owner: 'token:b' })).toBeUndefined();
    expect(await store.get('owned', 'o-1', 'all')).toEqual(task('o-1'));
    expect((await listAll(store, 'owned', {}, { owner: 'token:b' })).tasks.map((item) => item.id)).toEqual(['o-2']);
    expect((await listAll(store, 'owned', {}, 'all')).totalSize).toBe(2);
    // A later save by another principal updates the task but never its owner.
    await store.save('owned', task('o-1', { text: 'update' }), '2030-01-01T00:00:01.000Z', 'token:b');
    expect(await store.get('owned', 'o-1', { owner: 'token:b' })).toBeUndefined();
  });
});
