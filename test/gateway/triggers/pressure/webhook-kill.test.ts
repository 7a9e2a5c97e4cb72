import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../../admin/spawn-server.js';
import { dialects, type TestDatabase } from '../../../support/databases.js';
import { listDeliveries, payloadIds, postDelivery, pressureYaml, repeated, startCountingUpstream, waitForDone, type CountingUpstream } from './pressure-harness.js';

const CONCURRENCY = 4;
const DELIVERIES = 300;
/** The kill comes once this many handler calls reached the upstream: about a fifth of the burst. */
const KILL_AFTER_CALLS = 60;

for (const dialect of await dialects()) {
  describe.skipIf(dialect.skip)(`kill -9 of a server in the middle of a webhook burst on ${dialect.name}`, () => {
    let database: TestDatabase;
    let upstream: CountingUpstream;
    let server: ServerProcess | undefined;
    beforeAll(async () => {
      database = await dialect.create();
      upstream = await startCountingUpstream(100);
    });
    afterAll(async () => {
      await server?.kill();
      await upstream?.close();
      await database?.drop();
    });

    it('after the restart every acknowledged delivery is done once; only deliveries in hand at the kill ran twice', async () => {
      const file = join(database.dataDir, 'agent-gateway.yaml');
      // Leases of 5 s (the least allowed): on PostgreSQL the restarted process takes the dead one's claims over when they lapse.
      writeFileSync(file, pressureYaml(upstream.url, { concurrency: CONCURRENCY, leaseSeconds: 5 }));
      const start = () => spawnServer(['--config', file, '--data-dir', join(database.dataDir, 'data')], { ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}), LOG_LEVEL: 'warn' });
      server = await start();
      const first = server;

      // Sent in bursts of 50 while the server works; requests cut off by the kill are not acknowledged.
      const acknowledged = new Map<string, string>();
      let killed = false;
      const sending = (async () => {
        const ids = payloadIds(DELIVERIES, 'k');
        for (let index = 0; index < ids.length && !killed; index += 50) {
          await Promise.all(ids.slice(index, index + 50).map(async (id) => {
            const deliveryId = await postDelivery(first.url, id).catch((error: unknown) => {
              if (!killed) throw error;
            });
            if (deliveryId) acknowledged.set(id, deliveryId);
          }));
        }
      })();

      await expect.poll(() => upstream.total(), { timeout: 60_000, interval: 5 }).toBeGreaterThanOrEqual(KILL_AFTER_CALLS);
      killed = true;
      const openAtKill = [...upstream.open];
      await first.kill('SIGKILL');
      // Read once the process is gone: every call it made has arrived.
      const calledBeforeKill = new Set(upstream.calls.keys());
      await sending;
      expect(calledBeforeKill.size).toBeLessThan(acknowledged.size);

      server = await start();
      const done = await waitForDone(server.url, 'webhook', new Set(acknowledged.values()), 90_000);
      expect(done).toHaveLength(acknowledged.size);
      expect(repeated(done.map((delivery) => delivery.id))).toEqual([]);
      expect(await listDeliveries(server.url, { status: 'pending', kind: 'webhook' })).toEqual([]);

      for (const id of acknowledged.keys()) expect(upstream.calls.get(id), `upstream calls for ${id}`).toBeGreaterThanOrEqual(1);
      const duplicates = upstream.duplicates();
      // Only a delivery claimed at the kill can run again: its handler had started, its outcome was not stored.
      expect(duplicates.length, `ran twice: ${duplicates.join(', ')}; open at the kill: ${openAtKill.join(', ')}`).toBeLessThanOrEqual(CONCURRENCY);
      for (const id of duplicates) {
        expect(calledBeforeKill.has(id), `${id} ran twice but was not called before the kill`).toBe(true);
        expect(upstream.calls.get(id)).toBe(2);
      }
    }, 150_000);
  });
}
