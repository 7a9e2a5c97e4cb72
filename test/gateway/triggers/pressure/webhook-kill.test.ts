import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../../admin/spawn-server.js';
import { dialects, type Dialect } from '../../../support/databases.js';
import {
  listDeliveries,
  listRuns,
  payloadIds,
  postDelivery,
  pressureYaml,
  repeated,
  startCountingUpstream,
  waitForDone,
  type CountingUpstream,
} from './pressure-harness.js';

const CONCURRENCY = 4;

interface KillPlan {
  deliveries: number;
  /** Requests in flight at once while sending. */
  window: number;
  handlerDelayMs: number;
  /** Resolves when it is time to kill. */
  killWhen(state: { upstream: CountingUpstream; acknowledged: Map<string, string> }): Promise<unknown>;
}

/**
 * Sends `deliveries` to a server process, kill -9s it as the plan says, restarts it on the same data and
 * checks that every acknowledged delivery ends done once, and that only deliveries whose handler had
 * started before the kill ran twice at the upstream.
 */
async function killAndRestart(dialect: Dialect, plan: KillPlan): Promise<{ acknowledged: number }> {
  const database = await dialect.create();
  const upstream = await startCountingUpstream(plan.handlerDelayMs);
  const file = join(database.dataDir, 'agent-gateway.yaml');
  // Leases of 5 s (the least allowed): on PostgreSQL the restarted process takes the dead one's claims over when they lapse.
  writeFileSync(file, pressureYaml(upstream.url, { concurrency: CONCURRENCY, leaseSeconds: 5 }));
  const start = () =>
    spawnServer(['--config', file, '--data-dir', join(database.dataDir, 'data')], {
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      LOG_LEVEL: 'warn',
    });
  let server: ServerProcess | undefined;
  try {
    server = await start();
    const first = server;
    // Requests cut off by the kill are not acknowledged: only 202s count.
    const acknowledged = new Map<string, string>();
    let killed = false;
    const ids = payloadIds(plan.deliveries, 'k');
    let next = 0;
    const sending = Promise.all(
      Array.from({ length: plan.window }, async () => {
        while (next < ids.length && !killed) {
          const id = ids[next++];
          const deliveryId = await postDelivery(first.url, id).catch((error: unknown) => {
            if (!killed) throw error;
          });
          if (deliveryId) acknowledged.set(id, deliveryId);
        }
      }),
    );

    await plan.killWhen({ upstream, acknowledged });
    killed = true;
    const openAtKill = [...upstream.open];
    await first.kill('SIGKILL');
    // Read once the process is gone: every call it made has arrived.
    const calledBeforeKill = new Set(upstream.calls.keys());
    await sending;
    expect(calledBeforeKill.size).toBeLessThan(acknowledged.size);

    server = await start();
    const restarted = server;
    const done = await waitForDone(restarted.url, 'webhook', new Set(acknowledged.values()), 90_000).catch(
      (error: unknown) => {
        // A CI run once found the restarted server gone (ECONNREFUSED): its last words say why.
        throw new Error(`${String(error)}\nthe restarted server's output:\n${restarted.output().slice(-4000)}`, {
          cause: error,
        });
      },
    );
    expect(done).toHaveLength(acknowledged.size);
    expect(repeated(done.map((delivery) => delivery.id))).toEqual([]);
    // Deliveries stored just before the kill but never answered 202 are processed too: last, as they came last.
    await expect
      .poll(() => listDeliveries(restarted.url, { status: 'pending', kind: 'webhook' }), {
        timeout: 30_000,
        interval: 200,
      })
      .toEqual([]);
    // Runs the killed process left unfinished are marked interrupted (at the restart on SQLite, once their
    // heartbeat lapses on PostgreSQL, where other replicas may share the database), never left running.
    await expect.poll(() => listRuns(restarted.url, 'running'), { timeout: 30_000, interval: 200 }).toEqual([]);
    expect((await listRuns(server.url, 'interrupted')).length).toBeLessThanOrEqual(CONCURRENCY);

    for (const id of acknowledged.keys())
      expect(upstream.calls.get(id), `upstream calls for ${id}`).toBeGreaterThanOrEqual(1);
    const duplicates = upstream.duplicates();
    // Only a delivery claimed at the kill can run again: its handler had started, its outcome was not stored.
    expect(
      duplicates.length,
      `ran twice: ${duplicates.join(', ')}; open at the kill: ${openAtKill.join(', ')}`,
    ).toBeLessThanOrEqual(CONCURRENCY);
    for (const id of duplicates) {
      expect(calledBeforeKill.has(id), `${id} ran twice but was not called before the kill`).toBe(true);
      expect(upstream.calls.get(id)).toBe(2);
    }
    return { acknowledged: acknowledged.size };
  } finally {
    await server?.kill();
    await upstream.close();
    await database.drop();
  }
}

for (const dialect of await dialects()) {
  describe.skipIf(dialect.skip)(`kill -9 of a server in the middle of a webhook burst on ${dialect.name}`, () => {
    it('after the restart every acknowledged delivery is done once; only deliveries in hand at the kill ran twice', async () => {
      // 200 deliveries, 50 ms handlers; the kill comes once 40 handler calls reached the upstream, after the last 202.
      await killAndRestart(dialect, {
        deliveries: 200,
        window: 50,
        handlerDelayMs: 50,
        killWhen: ({ upstream }) =>
          expect.poll(() => upstream.total(), { timeout: 60_000, interval: 5 }).toBeGreaterThanOrEqual(40),
      });
    }, 150_000);

    it('a kill while deliveries are still arriving loses none that was answered 202', async () => {
      // 32 requests in flight when 150 have been answered: the kill cuts into intake and processing at once.
      const { acknowledged } = await killAndRestart(dialect, {
        deliveries: 600,
        window: 32,
        handlerDelayMs: 10,
        killWhen: ({ acknowledged }) =>
          expect.poll(() => acknowledged.size, { timeout: 60_000, interval: 2 }).toBeGreaterThanOrEqual(150),
      });
      expect(acknowledged).toBeLessThan(600);
    }, 150_000);
  });
}
