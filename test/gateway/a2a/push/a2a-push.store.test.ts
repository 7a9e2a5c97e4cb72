import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../../src/db/index.js';
import { createA2aPushStore, type A2aPushStore } from '../../../../src/gateway/a2a/index.js';
import { dialects, type TestDatabase } from '../../../support/databases.js';

const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-01T00:00:01.000Z';
const T3 = '2030-01-01T00:00:03.000Z';
const T60 = '2030-01-01T00:01:00.000Z';
const T5 = '2030-01-01T00:00:05.000Z';
const delivery = (id: string, config: string) => ({
  delivery_id: id,
  agent_name: 'helper',
  task_id: 'task-1',
  config_id: config,
  content_type: 'application/json',
  body: `{"n":"${id}"}`,
});

for (const dialect of await dialects()) {
  describe.skipIf(dialect.skip)(`A2A push store on ${dialect.name}`, () => {
    let testDb: TestDatabase;
    let database: DatabaseHandle;
    let store: A2aPushStore;
    beforeAll(async () => {
      testDb = await dialect.create();
      database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
      store = createA2aPushStore(database.db);
    });
    afterAll(async () => {
      await database.close();
      await testDb.drop();
    });

    it('keeps configs per task and owner, replacing one set again under the same id', async () => {
      const config = { agentName: 'helper', taskId: 'task-1', wireVersion: '1.0', owner: 'token:a' };
      await store.saveConfig({ ...config, configId: 'a', config: { url: 'http://one' } }, T0);
      await store.saveConfig({ ...config, configId: 'a', config: { url: 'http://two' } }, T0);
      await store.saveConfig({ ...config, configId: 'b', owner: 'token:b', config: { url: 'http://b' } }, T0);
      expect((await store.listConfigs('helper', 'task-1', 'token:a')).map((c) => c.config)).toEqual([
        { url: 'http://two' },
      ]);
      expect(await store.listConfigs('helper', 'task-1')).toHaveLength(2);
      await store.deleteConfig('helper', 'task-1', 'b', 'token:a');
      expect(await store.listConfigs('helper', 'task-1')).toHaveLength(2);
      await store.deleteConfig('helper', 'task-1', 'b', 'token:b');
      expect(await store.listConfigs('helper', 'task-1')).toHaveLength(1);
    });

    it('claims the oldest unfinished delivery of each config, once, and takes back a lapsed lease', async () => {
      await store.enqueue([delivery('evt_1', 'x'), delivery('evt_2', 'x'), delivery('evt_3', 'y')], T0);
      const first = await store.claimDue({ now: T0, workerId: 'w1', leaseUntil: T3, limit: 10 });
      expect(first.map((d) => d.delivery_id)).toEqual(['evt_1', 'evt_3']);
      expect(first.map((d) => d.attempts)).toEqual([1, 1]);
      // Held under w1's lease: another worker gets nothing, and evt_2 waits behind evt_1.
      expect(await store.claimDue({ now: T0, workerId: 'w2', leaseUntil: T1, limit: 10 })).toEqual([]);

      expect(await store.settle('evt_1', 'w1', { status: 'pending', nextAttemptAt: T5, lastError: 'HTTP 503' })).toBe(
        true,
      );
      expect(await store.nextDueAt()).toBe(T5);
      expect(await store.claimDue({ now: T1, workerId: 'w2', leaseUntil: T5, limit: 10 })).toEqual([]);
      // w1 died holding evt_3: once its lease lapses another worker takes it, and w1's late outcome is discarded.
      const retaken = await store.claimDue({ now: T5, workerId: 'w2', leaseUntil: T60, limit: 10 });
      expect(retaken.map((d) => [d.delivery_id, d.attempts])).toEqual([
        ['evt_1', 2],
        ['evt_3', 2],
      ]);
      expect(await store.settle('evt_3', 'w1', { status: 'done', finishedAt: T5, lastError: null })).toBe(false);
      expect(await store.settle('evt_1', 'w2', { status: 'done', finishedAt: T5, lastError: null })).toBe(true);
      const next = await store.claimDue({ now: T5, workerId: 'w2', leaseUntil: T60, limit: 10 });
      expect(next.map((d) => d.delivery_id)).toEqual(['evt_2']);
      expect((await store.deliveriesOf('helper', 'task-1')).map((d) => d.status)).toEqual([
        'done',
        'running',
        'running',
      ]);
    });
  });
}
