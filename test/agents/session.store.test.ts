import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createSessionService,
  createSessionStore,
  type SessionService,
  type SessionStore,
} from '../../src/agents/index.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';

await describeEachDialect('session store', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let store: SessionStore;
  let sessions: SessionService;
  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    store = createSessionStore(database.db);
    sessions = createSessionService({ store });
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('creates a session on first use, appends in order and touches last_active', async () => {
    const opened = await store.open('s-1', 'helper', 'token:a', '2026-01-01T00:00:00.000Z');
    expect(opened).toEqual({
      session_id: 's-1',
      agent_name: 'helper',
      owner: 'token:a',
      created_at: '2026-01-01T00:00:00.000Z',
      last_active: '2026-01-01T00:00:00.000Z',
      message_count: 0,
      requested: 1,
    });
    await store.append(
      's-1',
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ],
      '2026-01-01T00:00:01.000Z',
    );
    await store.append('s-1', [{ role: 'user', content: 'again' }], '2026-01-01T00:00:02.000Z');
    expect(await store.messages('s-1')).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'again' },
    ]);
    const reopened = await store.open('s-1', 'helper', 'token:a', '2026-01-01T00:00:03.000Z');
    expect(reopened).toMatchObject({
      created_at: '2026-01-01T00:00:00.000Z',
      last_active: '2026-01-01T00:00:03.000Z',
      message_count: 3,
    });
  });

  it('keeps concurrent appends apart', async () => {
    await store.open('s-2', 'helper', 'token:a', '2026-01-01T00:00:00.000Z');
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        store.append(
          's-2',
          [
            { role: 'user', content: `m${index}` },
            { role: 'assistant', content: `a${index}` },
          ],
          '2026-01-01T00:00:01.000Z',
        ),
      ),
    );
    const messages = await store.messages('s-2');
    expect(messages).toHaveLength(16);
    expect((await store.find('s-2'))?.message_count).toBe(16);
    for (let index = 0; index < 16; index += 2)
      expect(messages[index + 1].content).toBe(`a${messages[index].content.slice(1)}`);
  });

  it('refuses a session of another agent with 409 and leaves it untouched', async () => {
    await sessions.open('s-3', 'helper', 'token:a', [{ role: 'user', content: 'x' }]);
    const before = await store.find('s-3');
    await expect(sessions.open('s-3', 'other', 'token:a', [{ role: 'user', content: 'y' }])).rejects.toMatchObject({
      status: 409,
      code: 'session_agent_mismatch',
    });
    expect(await store.find('s-3')).toEqual(before);
  });

  it('lists sessions active since a time, most recent first', async () => {
    const active = await store.listActive('2026-01-01T00:00:02.500Z');
    expect(active.map((session) => session.session_id)[0]).toBe('s-3');
    expect(active.map((session) => session.session_id)).toContain('s-1');
    expect(active.map((session) => session.session_id)).not.toContain('s-2');
  });

  it('lists a session its caller did not name only once it is opened again (continued)', async () => {
    const since = '2026-01-01T00:00:00.000Z';
    const listed = async () => (await store.listActive(since)).map((session) => session.session_id);
    const { insert } = sessions.create('s-made-up', 'helper', 'token:a');
    await insert(database.db);
    await store.open('s-derived', 'helper', 'token:a', '2026-01-01T00:00:04.000Z', false);
    expect(await listed()).not.toContain('s-made-up');
    expect(await listed()).not.toContain('s-derived');
    const count = await store.countActive(since);
    // Another owner's or agent's attempt is refused and does not count as continuing it.
    await expect(sessions.open('s-made-up', 'helper', 'token:b', [])).rejects.toMatchObject({ status: 404 });
    await expect(sessions.open('s-made-up', 'other', 'token:a', [])).rejects.toMatchObject({ status: 409 });
    expect(await listed()).not.toContain('s-made-up');
    await sessions.open('s-made-up', 'helper', 'token:a', [{ role: 'user', content: 'again' }]);
    await store.open('s-derived', 'helper', 'token:a', '2026-01-01T00:00:05.000Z', false);
    expect(await listed()).toEqual(expect.arrayContaining(['s-made-up', 's-derived']));
    expect(await store.countActive(since)).toBe(count + 2);
  });

  it("answers 404 to another owner, never merging the owner's history, and leaves the session untouched", async () => {
    await sessions.open('s-4', 'helper', 'token:a', []);
    await store.append('s-4', [{ role: 'user', content: 'private' }], '2026-01-01T00:00:03.000Z');
    const before = await store.find('s-4');
    await expect(sessions.open('s-4', 'helper', 'token:b', [{ role: 'user', content: 'who?' }])).rejects.toMatchObject({
      status: 404,
      code: 'session_not_found',
    });
    await expect(sessions.open('s-4', 'other', 'token:b', [])).rejects.toMatchObject({
      status: 404,
      code: 'session_not_found',
    });
    expect(await store.find('s-4')).toEqual(before);
    const own = await sessions.open('s-4', 'helper', 'token:a', [{ role: 'user', content: 'more' }]);
    expect(own.conversation.map((message) => message.content)).toEqual(['private', 'more']);
  });
});
