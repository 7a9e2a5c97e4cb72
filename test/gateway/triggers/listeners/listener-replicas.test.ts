import { connect as connectAmqp } from 'amqplib';
import { connectAsync as connectMqtt } from 'mqtt';
import { Redis } from 'ioredis';
import { connect as connectNats } from 'nats';
import { describe, expect, it, vi } from 'vitest';
import { brokerUnavailable, uniqueSuffix } from './broker-probe.js';
import { startReplicas, type Replicas } from './replica-harness.js';
import { FAST_SETTINGS_YAML } from '../trigger-harness.js';

// Issue 14: with several replicas each message is stored and run once in total, using the broker's own sharing.
const BURST = 200;
const HANDLER = '[{ event: job, agent: billing, prompt: "job {{n}}" }]';
const [amqpSkip, natsSkip, mqttSkip, redisSkip] = [
  await brokerUnavailable('RabbitMQ', 5672),
  await brokerUnavailable('NATS', 4222),
  await brokerUnavailable('Mosquitto (MQTT)', 1883),
  await brokerUnavailable('Redis', 6379),
];
const jobs = () => Array.from({ length: BURST }, (_, n) => JSON.stringify({ type: 'job', n }));

/** Every message stored once, each replica took part, and every event was run once across replicas. */
async function expectSharedOnce(replicas: Replicas, name: string): Promise<void> {
  await replicas.storedAtLeast(name, BURST);
  await vi.waitFor(() => expect(replicas.prompts().length).toBeGreaterThanOrEqual(BURST), {
    timeout: 30_000,
    interval: 50,
  });
  const received = replicas.received(name);
  expect(received.reduce((sum, count) => sum + count, 0)).toBe(BURST);
  expect(
    received.every((count) => count > 0),
    `received per replica: ${received.join(', ')}`,
  ).toBe(true);
  expect(replicas.duplicates(name)).toBe(0);
  expect(await replicas.stored(name)).toBe(BURST);
  expect(new Set(replicas.prompts()).size).toBe(BURST);
  expect(replicas.prompts()).toHaveLength(BURST);
  // No replica lost its connection on the way (e.g. kicked off by another using the same MQTT client id).
  for (const replica of replicas.replicas)
    expect(replica.logger.entries.filter((entry) => entry.message === 'trigger source failed; backing off')).toEqual(
      [],
    );
}

describe.skipIf(amqpSkip)('amqp listener on two replicas', () => {
  it(`consumes one durable queue as competing consumers: a burst of ${BURST} is stored once, part by each replica`, async () => {
    const queue = `ag-test-replicas-${uniqueSuffix()}`;
    const connection = await connectAmqp('amqp://guest:guest@127.0.0.1:5672');
    const channel = await connection.createConfirmChannel();
    const replicas = await startReplicas(
      `${FAST_SETTINGS_YAML}
listeners:
  - { name: jobs, source: amqp, url: "amqp://guest:guest@127.0.0.1:5672", queue: ${queue}, prefetch: 8, handlers: ${HANDLER} }
`,
      { connected: ['jobs'] },
    );
    try {
      jobs().forEach((body, n) =>
        channel.sendToQueue(queue, Buffer.from(body), { messageId: `m-${n}`, persistent: true }),
      );
      await channel.waitForConfirms();
      await expectSharedOnce(replicas, 'jobs');
      expect((await channel.checkQueue(queue)).consumerCount).toBe(2);
    } finally {
      await replicas.close();
      await channel.deleteQueue(queue).catch(() => undefined);
      await connection.close();
    }
  });
});

describe.skipIf(natsSkip)('nats listener on two replicas', () => {
  it(`binds both replicas to one JetStream durable consumer: a burst of ${BURST} is stored once, part by each`, async () => {
    const suffix = uniqueSuffix();
    const stream = `AGREP_${suffix.toUpperCase()}`;
    const nc = await connectNats({ servers: 'nats://127.0.0.1:4222' });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [`agrep.${suffix}.>`] });
    const replicas = await startReplicas(
      `${FAST_SETTINGS_YAML}
listeners:
  - { name: jobs, source: nats, url: "nats://127.0.0.1:4222", subject: "agrep.${suffix}.>", stream: ${stream}, handlers: ${HANDLER} }
`,
      { connected: ['jobs'] },
    );
    try {
      const js = nc.jetstream();
      await Promise.all(jobs().map((body) => js.publish(`agrep.${suffix}.job`, body)));
      await expectSharedOnce(replicas, 'jobs');
      expect((await jsm.consumers.list(stream).next()).map((consumer) => consumer.name)).toEqual([
        'agent-gateway-jobs',
      ]);
    } finally {
      await replicas.close();
      await jsm.streams.delete(stream).catch(() => undefined);
      await nc.close();
    }
  });

  it(`subscribes core NATS in a queue group by default: a burst of ${BURST} is stored once, part by each`, async () => {
    const subject = `agrep.${uniqueSuffix()}.jobs`;
    const nc = await connectNats({ servers: 'nats://127.0.0.1:4222' });
    const replicas = await startReplicas(
      `${FAST_SETTINGS_YAML}
listeners:
  - { name: jobs, source: nats, url: "nats://127.0.0.1:4222", subject: "${subject}", handlers: ${HANDLER} }
`,
      { connected: ['jobs'] },
    );
    try {
      for (const body of jobs()) nc.publish(subject, body);
      await nc.flush();
      await expectSharedOnce(replicas, 'jobs');
    } finally {
      await replicas.close();
      await nc.close();
    }
  });
});

describe.skipIf(mqttSkip)('mqtt listener on two replicas', () => {
  it(`shares an MQTT 5 subscription ($share) with a client id per replica: a burst of ${BURST} is stored once, part by each`, async () => {
    const suffix = uniqueSuffix();
    const prefix = `agrep-${suffix}`;
    const publisher = await connectMqtt('mqtt://127.0.0.1:1883', { clientId: `${prefix}-pub` });
    const replicas = await startReplicas(
      `${FAST_SETTINGS_YAML}
listeners:
  - { name: jobs, source: mqtt, url: "mqtt://127.0.0.1:1883", topic: "agrep/${suffix}/#", client_id: ${prefix}, handlers: ${HANDLER} }
`,
      { connected: ['jobs'] },
    );
    try {
      await Promise.all(jobs().map((body, n) => publisher.publishAsync(`agrep/${suffix}/${n}`, body, { qos: 1 })));
      await expectSharedOnce(replicas, 'jobs');
    } finally {
      await replicas.close();
      // A clean session with each replica's id drops the broker's persistent sessions for them.
      for (const replica of ['replica-1', 'replica-2'])
        await (
          await connectMqtt('mqtt://127.0.0.1:1883', { clientId: `${prefix}-${replica}`, clean: true })
        ).endAsync();
      await publisher.endAsync();
    }
  });

  it('keeps the share of a replica that is away in its session, and hands it over when that replica comes back with its id', async () => {
    const suffix = uniqueSuffix();
    const prefix = `agrep-${suffix}`;
    const publisher = await connectMqtt('mqtt://127.0.0.1:1883', { clientId: `${prefix}-pub` });
    const replicas = await startReplicas(
      `${FAST_SETTINGS_YAML}
listeners:
  - { name: jobs, source: mqtt, url: "mqtt://127.0.0.1:1883", topic: "agrep/${suffix}/#", client_id: ${prefix}, handlers: ${HANDLER} }
`,
      { connected: ['jobs'] },
    );
    const [away, staying] = replicas.replicas;
    try {
      await away.triggers.stop();
      await Promise.all(
        jobs()
          .slice(0, 20)
          .map((body, n) => publisher.publishAsync(`agrep/${suffix}/${n}`, body, { qos: 1 })),
      );
      // The broker deals shared messages to every member of the group, the absent one's session included.
      await vi.waitFor(() => expect(staying.runs.calls.length).toBeGreaterThan(0));
      const restarted = await away.restart();
      await restarted.start();
      await replicas.storedAtLeast('jobs', 20);
      await vi.waitFor(() => expect(replicas.prompts()).toHaveLength(20), { timeout: 15_000 });
      expect(new Set(replicas.prompts()).size).toBe(20);
      expect(away.triggers.intake.stats()[0].received).toBeGreaterThan(0);
    } finally {
      await replicas.close();
      for (const replica of ['replica-1', 'replica-2'])
        await (
          await connectMqtt('mqtt://127.0.0.1:1883', { clientId: `${prefix}-${replica}`, clean: true })
        ).endAsync();
      await publisher.endAsync();
    }
  });
});

describe.skipIf(redisSkip)('redis pub/sub listener on two replicas', () => {
  it(`fans out: each replica receives all of a burst of ${BURST}, and id_field has the shared inbox store and run each once`, async () => {
    const channel = `ag-test:${uniqueSuffix()}:jobs`;
    const publisher = new Redis('redis://127.0.0.1:6379');
    const replicas = await startReplicas(
      `${FAST_SETTINGS_YAML}
listeners:
  - { name: jobs, source: redis, url: "redis://127.0.0.1:6379", channel: "${channel}", id_field: n, handlers: ${HANDLER} }
`,
      { connected: ['jobs'] },
    );
    try {
      const pipeline = publisher.pipeline();
      for (const body of jobs()) pipeline.publish(channel, body);
      await pipeline.exec();
      await replicas.storedAtLeast('jobs', BURST);
      await vi.waitFor(() => expect(replicas.received('jobs')).toEqual([BURST, BURST]), { timeout: 30_000 });
      expect(replicas.duplicates('jobs')).toBe(BURST);
      expect(await replicas.stored('jobs')).toBe(BURST);
      await vi.waitFor(() => expect(replicas.prompts().length).toBeGreaterThanOrEqual(BURST), {
        timeout: 30_000,
        interval: 50,
      });
      expect(new Set(replicas.prompts()).size).toBe(BURST);
      expect(replicas.prompts()).toHaveLength(BURST);
    } finally {
      await replicas.close();
      publisher.disconnect();
    }
  });
});
