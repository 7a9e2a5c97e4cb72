import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../support/app.js';
import { dialects, type TestDatabase } from '../../../support/databases.js';
import { startItemsServer, type ItemsServer } from '../pollers/items-server.fixture.js';
import {
  listDeliveries,
  payloadIds,
  pressureYaml,
  repeated,
  startCountingUpstream,
  type CountingUpstream,
  type ListedDelivery,
} from './pressure-harness.js';

const CONCURRENCY = 4;
const ITEMS = 200;

const pollerYaml = (itemsUrl: string) => `
trigger_settings: { concurrency: ${CONCURRENCY} }
pollers:
  - name: jobs
    interval_minutes: 0.0167
    http: { url: "${itemsUrl}/jobs", items_path: items }
    id_field: id
    handler: { agent: worker, prompt: "handle {{id}}" }
`;

for (const dialect of await dialects()) {
  describe.skipIf(dialect.skip)(
    `a poller returning ${ITEMS} items on ${dialect.name}, concurrency ${CONCURRENCY}`,
    () => {
      let database: TestDatabase;
      let upstream: CountingUpstream;
      let items: ItemsServer;
      let app: TestApp;
      beforeAll(async () => {
        database = await dialect.create();
        [upstream, items] = await Promise.all([startCountingUpstream(50), startItemsServer()]);
      });
      afterAll(async () => {
        await app?.stop({ keepData: true });
        await Promise.all([upstream?.close(), items?.close()]);
        await database?.drop();
      });

      it('runs every item once with 50 ms handlers, never more than 4 at a time, though every poll returns them all again', async () => {
        const ids = payloadIds(ITEMS, 'item');
        items.respond = () => ({ status: 200, body: { items: ids.map((id) => ({ id, title: `job ${id}` })) } });
        app = await startTestApp(pressureYaml(upstream.url, { concurrency: 1, extra: pollerYaml(items.url) }), {
          dataDir: database.dataDir,
          databaseUrl: database.databaseUrl,
        });

        let done: ListedDelivery[] = [];
        await expect
          .poll(async () => (done = await listDeliveries(app.url, { status: 'done', kind: 'poller' })).length, {
            timeout: 60_000,
            interval: 250,
          })
          .toBe(ITEMS);
        expect(repeated(done.flatMap((event) => event.run_ids))).toEqual([]);
        expect(done.filter((event) => event.attempts !== 1 || event.run_ids.length !== 1)).toEqual([]);
        // The items were offered again by every poll made meanwhile; none became a second event.
        expect(items.requests.length).toBeGreaterThan(1);
        expect(await listDeliveries(app.url, { status: 'pending', kind: 'poller' })).toEqual([]);

        expect([...upstream.calls.keys()].sort()).toEqual([...ids].sort());
        expect(upstream.duplicates()).toEqual([]);
        expect(upstream.peak()).toBe(CONCURRENCY);
      }, 90_000);
    },
  );
}
