import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRunEventBus, type RunEvent, type RunEventBus } from '../../src/bus/index.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';
import { agentConfig, createRunHarness, type RunHarness } from './run-harness.js';

const skipReason = await redisUnavailable();
const keyPrefix = `agent-gateway-test:${randomBytes(4).toString('hex')}:`;

async function collect(source: AsyncIterable<RunEvent> | undefined): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of source ?? []) events.push(event);
  return events;
}

// The stored log is written from what the executing process published, not read back from the bus: it must
// be exactly what the bus's readers got, and no longer than the bus keeps.
describe.each([
  ['in-process bus', (logLimit?: number) => createRunEventBus({ logLimit })],
  ...(skipReason === undefined
    ? [
        [
          'Redis bus',
          (logLimit?: number) => createRunEventBus({ logLimit, redisUrl: TEST_REDIS_URL, keyPrefix }),
        ] as const,
      ]
    : []),
] as const)('the stored event log of a finished run (%s)', (_name, createBus: (logLimit?: number) => RunEventBus) => {
  let harness: RunHarness;
  let bus: RunEventBus;
  afterEach(async () => {
    await harness.close();
    await bus.close();
  });
  afterAll(async () => {
    if (skipReason !== undefined) return;
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('is the events a live reader got, seq and time included', async () => {
    bus = createBus();
    harness = await createRunHarness([agentConfig({ name: 'helper' })], {}, { bus });
    harness.models.script({ deltas: ['a', 'b', 'c', 'd'], text: 'abcd' });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    const live = collect(await harness.runs.attach(run.runId));
    await run.result;
    const seen = await live;
    expect(seen.map((event) => event.type)).toEqual([
      'run-start',
      'step-start',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-delta',
      'run-end',
    ]);
    expect(await harness.runStore.getEventLog(run.runId)).toEqual(seen);
  });

  it('keeps only the newest events the bus keeps', async () => {
    bus = createBus(4);
    harness = await createRunHarness([agentConfig({ name: 'helper' })], {}, { bus });
    harness.models.script({ deltas: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], text: 'abcdefghij' });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    await run.result;
    const stored = await harness.runStore.getEventLog(run.runId);
    expect(stored?.map((event) => event.seq)).toEqual([10, 11, 12, 13]);
    expect(stored?.map((event) => event.type)).toEqual(['text-delta', 'text-delta', 'text-delta', 'run-end']);
  });
});
