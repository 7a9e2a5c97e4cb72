import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brokerUnavailable, uniqueSuffix } from './broker-probe.js';
import { startReplicas } from './replica-harness.js';
import { FAST_SETTINGS_YAML, startTriggerHarness, waitForState } from '../trigger-harness.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const skip = await brokerUnavailable('Redis', 6379);

describe.skipIf(skip)('redis-stream listener', () => {
  let redis: Redis;
  const streams: string[] = [];
  const newStream = () => {
    const stream = `ag-test:${uniqueSuffix()}:jobs`;
    streams.push(stream);
    return stream;
  };
  const pending = async (stream: string, group: string) =>
    ((await redis.xpending(stream, group)) as [number, ...unknown[]])[0];
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    if (streams.length > 0) await redis?.del(...streams);
    redis?.disconnect();
  });

  it('shares a consumer group across two replicas: a burst of 200 entries is stored and run once, part by each, all acknowledged', async () => {
    const stream = newStream();
    const replicas = await startReplicas(
      `${FAST_SETTINGS_YAML}
listeners:
  - { name: jobs, source: redis-stream, url: "${REDIS_URL}", stream: "${stream}", handlers: [{ event: job, agent: billing, prompt: "job {{n}}" }] }
`,
      { connected: ['jobs'] },
    );
    try {
      const pipeline = redis.pipeline();
      // Without `field`, the entry's own fields are the message.
      for (let n = 0; n < 200; n += 1) pipeline.xadd(stream, '*', 'type', 'job', 'n', String(n));
      await pipeline.exec();
      await replicas.storedAtLeast('jobs', 200);
      await vi.waitFor(() => expect(replicas.prompts().length).toBeGreaterThanOrEqual(200), {
        timeout: 30_000,
        interval: 50,
      });
      const received = replicas.received('jobs');
      expect(received.reduce((sum, count) => sum + count, 0)).toBe(200);
      expect(
        received.every((count) => count > 0),
        `received per replica: ${received.join(', ')}`,
      ).toBe(true);
      expect(replicas.duplicates('jobs')).toBe(0);
      expect(new Set(replicas.prompts()).size).toBe(200);
      expect(replicas.prompts()).toHaveLength(200);
      await vi.waitFor(async () => expect(await pending(stream, 'agent-gateway-jobs')).toBe(0));
      const consumers = (await redis.xinfo('CONSUMERS', stream, 'agent-gateway-jobs')) as unknown[][];
      expect(consumers.map((consumer) => consumer[1]).sort()).toEqual(['replica-1', 'replica-2']);
    } finally {
      await replicas.close();
    }
  });

  it('claims an entry a dead consumer read and never acknowledged, and dedupes it by its entry id', async () => {
    const stream = newStream();
    await redis.xgroup('CREATE', stream, 'workers', '$', 'MKSTREAM');
    const id = await redis.xadd(stream, '*', 'data', JSON.stringify({ type: 'job', n: 'abandoned' }));
    // Another replica read it and died before storing it: it stays pending on that consumer.
    await redis.xreadgroup('GROUP', 'workers', 'dead-replica', 'COUNT', 10, 'STREAMS', stream, '>');
    expect(await pending(stream, 'workers')).toBe(1);
    const harness = await startTriggerHarness(
      `${FAST_SETTINGS_YAML}
listeners:
  - { name: jobs, source: redis-stream, url: "${REDIS_URL}", stream: "${stream}", group: workers, field: data, claim_idle_seconds: 0.2, handlers: [{ event: job, agent: billing, prompt: "job {{n}}" }] }
`,
      { triggers: { replicaId: 'survivor' } },
    );
    try {
      await harness.triggers.start();
      await harness.runsStarted(1);
      expect(harness.runs.prompts()).toEqual(['job abandoned']);
      expect((await harness.store.list({ name: 'jobs' }))[0].dedupe_key).toBe(`msg:${id}`);
      await vi.waitFor(async () => expect(await pending(stream, 'workers')).toBe(0));
    } finally {
      await harness.close();
    }
  });

  it('acknowledges only after the entry is stored: a store failure leaves it pending and it is read again', async () => {
    const stream = newStream();
    const harness = await startTriggerHarness(`${FAST_SETTINGS_YAML}
listeners:
  - { name: jobs, source: redis-stream, url: "${REDIS_URL}", stream: "${stream}", handlers: [{ event: job, agent: billing, prompt: "job {{n}}" }] }
`);
    try {
      await harness.triggers.start();
      await waitForState(harness, 'jobs', 'connected');
      const insert = harness.store.insert;
      let attempts = 0;
      harness.store.insert = async (event) => {
        if (attempts++ === 0) throw new Error('database is locked');
        return insert(event);
      };
      await redis.xadd(stream, '*', 'type', 'job', 'n', '1');
      await harness.runsStarted(1);
      harness.store.insert = insert;
      expect(attempts).toBe(2);
      expect(harness.runs.prompts()).toEqual(['job 1']);
      await vi.waitFor(async () => expect(await pending(stream, 'agent-gateway-jobs')).toBe(0));
    } finally {
      await harness.close();
    }
  });
});
