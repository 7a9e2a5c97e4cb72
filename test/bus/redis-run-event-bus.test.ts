import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRunEventBus, type RunControlCommand, type RunEvent, type RunEventBus } from '../../src/bus/index.js';
import { createId } from '../../src/ids.js';
import { collect, delta, publishRun, range, runEnd, runStart, seqs } from './bus-test-helpers.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';
import { describeRunEventBus } from './run-event-bus.suite.js';

const skipReason = await redisUnavailable();
const keyPrefix = `agent-gateway-test:${randomBytes(4).toString('hex')}:`;

function createRedisBus(options: { logLimit?: number; retentionMs?: number } = {}): RunEventBus {
  return createRunEventBus({ ...options, redisUrl: TEST_REDIS_URL, keyPrefix });
}

describe.skipIf(skipReason !== undefined)(`Redis bus${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  afterAll(async () => {
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  describeRunEventBus('Redis bus', createRedisBus);

  describe('across two processes', () => {
    it('lets one bus subscribe to and control runs that another publishes', async () => {
      const executor = createRedisBus();
      const watcher = createRedisBus();
      try {
        expect(await executor.ping()).toBe(true);
        expect(await watcher.ping()).toBe(true);
        const runId = createId('run');
        const controls: [string, string, RunControlCommand][] = [];
        executor.onControl((id, command) => controls.push(['executor', id, command]));
        watcher.onControl((id, command) => controls.push(['watcher', id, command]));

        await publishRun(executor, runId, 10, false);
        const late = collect(watcher.subscribe(runId));
        const resumed = collect(watcher.subscribe(runId, { afterSeq: 8 }));
        await watcher.sendControl(runId, 'cancel');
        await vi.waitFor(() => expect(controls).toContainEqual(['executor', runId, 'cancel']));
        await executor.publish(runId, { type: 'run-error', code: 'cancelled', message: 'Run was cancelled' });

        expect(seqs(await late)).toEqual(range(1, 12));
        expect(seqs(await resumed)).toEqual([9, 10, 11, 12]);
        expect(seqs(await watcher.history(runId))).toEqual(range(1, 12));
        await executor.sendControl(runId, 'pause');
        await vi.waitFor(() => expect(controls).toContainEqual(['watcher', runId, 'pause']));
        // The sender's own handlers run once, not again when its message comes back from Redis.
        expect(controls.filter(([who]) => who === 'watcher')).toEqual([
          ['watcher', runId, 'cancel'],
          ['watcher', runId, 'pause'],
        ]);
        expect(controls.filter(([who]) => who === 'executor')).toEqual([
          ['executor', runId, 'cancel'],
          ['executor', runId, 'pause'],
        ]);
      } finally {
        await Promise.all([executor.close(), watcher.close()]);
      }
    });

    it('gives subscribers on another bus, joining at any moment, every event exactly once', async () => {
      const executor = createRedisBus();
      const watcher = createRedisBus();
      try {
        const runId = createId('run');
        const total = 400;
        // Each subscription with the seq its first event must have.
        const subscriptions: [Promise<RunEvent[]>, number][] = [[collect(watcher.subscribe(runId)), 1]];
        const bursts: Promise<unknown>[] = [executor.publish(runId, runStart)];
        for (let i = 1; i <= total; i += 1) {
          // Bursts of publishes that are not awaited one by one, as a runtime streaming deltas might send them.
          bursts.push(executor.publish(runId, delta(`d${i}`)));
          if (i % 50 === 0) {
            subscriptions.push([collect(watcher.subscribe(runId)), 1]);
            subscriptions.push([collect(watcher.subscribe(runId, { afterSeq: i - 10 })), i - 9]);
            await Promise.all(bursts.splice(0));
          }
        }
        await executor.publish(runId, runEnd);
        for (const [subscription, first] of subscriptions)
          expect(seqs(await subscription)).toEqual(range(first, total + 2));
      } finally {
        await Promise.all([executor.close(), watcher.close()]);
      }
    });

    it('carries on without a gap after Redis drops its reader and control connections', async () => {
      const executor = createRedisBus();
      const watcher = createRedisBus();
      const admin = new Redis(TEST_REDIS_URL);
      try {
        const runId = createId('run');
        const received: RunControlCommand[] = [];
        watcher.onControl((id, command) => id === runId && received.push(command));
        await publishRun(executor, runId, 5, false);
        const seen = collect(watcher.subscribe(runId));
        await vi.waitFor(async () =>
          expect(await admin.pubsub('NUMSUB', `${keyPrefix}run-control`)).toEqual([`${keyPrefix}run-control`, 2]),
        );
        const clients = (await admin.client('LIST')) as string;
        const ids = [...clients.matchAll(/^id=(\d+) .* name=(\S+)/gm)]
          .filter(([, , name]) => name === `${keyPrefix}bus-reader` || name === `${keyPrefix}bus-control`)
          .map(([, id]) => id);
        for (const id of ids) await admin.client('KILL', 'ID', id);
        await publishRun(executor, runId, 5);
        expect(seqs(await seen)).toEqual(range(1, 13));
        // Pub/sub keeps nothing for a disconnected process, so send until the re-subscribed watcher hears it.
        await vi.waitFor(async () => {
          await executor.sendControl(runId, 'cancel');
          expect(received).toContain('cancel');
        });
      } finally {
        await Promise.all([executor.close(), watcher.close(), admin.quit()]);
      }
    });

    it('sets a TTL on a finished run and keeps its keys under the prefix', async () => {
      const bus = createRedisBus({ retentionMs: 60_000 });
      const redis = new Redis(TEST_REDIS_URL);
      try {
        const runId = createId('run');
        await publishRun(bus, runId, 1);
        const key = `${keyPrefix}run:${runId}:events`;
        const ttl = await redis.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(60_000);
      } finally {
        await Promise.all([bus.close(), redis.quit()]);
      }
    });
  });
});

describe('Redis bus without a Redis', () => {
  it('reports ping false and closes cleanly', async () => {
    const bus = createRunEventBus({ redisUrl: 'redis://127.0.0.1:1', keyPrefix });
    expect(await bus.ping()).toBe(false);
    await bus.close();
  });
});
