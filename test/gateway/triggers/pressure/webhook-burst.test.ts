import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../../support/app.js';
import { dialects, type Dialect } from '../../../support/databases.js';
import { hmacHex } from '../webhooks/signing.js';
import {
  listDeliveries,
  listRuns,
  payloadIds,
  PRESSURE_SECRET,
  pressureYaml,
  repeated,
  sendBursts,
  startCountingUpstream,
  waitForDone,
} from './pressure-harness.js';

const CONCURRENCY = 4;

/**
 * Starts an app on a fresh database, sends `count` deliveries in bursts of 100, waits until all are done,
 * and checks them against the upstream's record; resolves with the most calls the upstream had open at once.
 */
async function burstIsHandledOnceEach(dialect: Dialect, delayMs: number, count: number): Promise<number> {
  const database = await dialect.create();
  const upstream = await startCountingUpstream(delayMs);
  const app = await startTestApp(pressureYaml(upstream.url, { concurrency: CONCURRENCY }), {
    dataDir: database.dataDir,
    databaseUrl: database.databaseUrl,
  });
  try {
    const ids = payloadIds(count, 'job');
    const acknowledged = await sendBursts(ids, 100, () => app.url);
    const done = await waitForDone(app.url, 'webhook', new Set(acknowledged.values()), 60_000);
    expect(done.filter((delivery) => delivery.attempts !== 1 || delivery.run_ids.length !== 1)).toEqual([]);
    expect(repeated(done.flatMap((delivery) => delivery.run_ids))).toEqual([]);
    const completed = await listRuns(app.url, 'completed');
    expect(
      completed
        .filter((run) => run.source === 'webhook')
        .map((run) => run.run_id)
        .sort(),
    ).toEqual(done.flatMap((delivery) => delivery.run_ids).sort());
    const handled = ids.filter((id) => upstream.calls.has(id));
    expect({ handled: handled.length, duplicates: upstream.duplicates(), total: upstream.total() }).toEqual({
      handled: count,
      duplicates: [],
      total: count,
    });
    return upstream.peak();
  } finally {
    await app.stop({ keepData: true });
    await upstream.close();
    await database.drop();
  }
}

// The case scaled to the suite: 500 deliveries at concurrency 4 with 20 ms handlers, 125 times past capacity
// (the 1,000 with 100 ms handlers take 25 s of upstream time per engine and prove nothing more).
for (const dialect of await dialects()) {
  describe.skipIf(dialect.skip)(
    `bursts of signed webhooks into one process on ${dialect.name}, concurrency ${CONCURRENCY}`,
    () => {
      it('handles 500 deliveries with 20 ms handlers, each once, never more than 4 at a time', async () => {
        expect(await burstIsHandledOnceEach(dialect, 20, 500)).toBe(CONCURRENCY);
      }, 120_000);

      it('stores and runs once a delivery that arrives 50 times at once (a sender retrying in a burst)', async () => {
        const database = await dialect.create();
        const upstream = await startCountingUpstream(10);
        const app = await startTestApp(pressureYaml(upstream.url, { concurrency: CONCURRENCY }), {
          dataDir: database.dataDir,
          databaseUrl: database.databaseUrl,
        });
        try {
          const body = JSON.stringify({ type: 'job.created', id: 'again' });
          const answers = await Promise.all(
            Array.from({ length: 50 }, async () => {
              const response = await fetch(`${app.url}/webhooks/pressure`, {
                method: 'POST',
                body,
                headers: { 'content-type': 'application/json', 'x-signature': hmacHex(body, PRESSURE_SECRET) },
              });
              return {
                status: response.status,
                ...((await response.json()) as { delivery_id: string; duplicate: boolean }),
              };
            }),
          );
          expect(answers.every((answer) => answer.status === 202)).toBe(true);
          expect(answers.filter((answer) => !answer.duplicate)).toHaveLength(1);
          const deliveryIds = new Set(answers.map((answer) => answer.delivery_id));
          expect(deliveryIds.size).toBe(1);
          await waitForDone(app.url, 'webhook', deliveryIds, 30_000);
          expect(await listDeliveries(app.url, { status: 'pending', kind: 'webhook' })).toEqual([]);
          expect(upstream.calls).toEqual(new Map([['again', 1]]));
        } finally {
          await app.stop({ keepData: true });
          await upstream.close();
          await database.drop();
        }
      });
    },
  );
}
