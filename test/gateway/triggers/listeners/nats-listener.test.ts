import { connect, headers, type JetStreamClient, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brokerUnavailable, uniqueSuffix } from './broker-probe.js';
import { startTcpProxy, type TcpProxy } from '../../../support/tcp-proxy.js';
import { FAST_SETTINGS_YAML, startTriggerHarness, waitForState, type TriggerHarness } from '../trigger-harness.js';

const skip = await brokerUnavailable('NATS', 4222);

describe.skipIf(skip)('nats listener', () => {
  const suffix = uniqueSuffix();
  const stream = `AGTEST_${suffix.toUpperCase()}`;
  const subject = `agtest.${suffix}`;
  let proxy: TcpProxy;
  let harness: TriggerHarness;
  let nc: NatsConnection;
  let js: JetStreamClient;
  beforeAll(async () => {
    proxy = await startTcpProxy({ port: 4222 });
    nc = await connect({ servers: 'nats://127.0.0.1:4222' });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [`${subject}.orders.>`] });
    js = nc.jetstream();
    harness = await startTriggerHarness(`${FAST_SETTINGS_YAML}
listeners:
  - name: orders
    source: nats
    url: ${proxy.url('nats')}
    subject: "${subject}.orders.>"
    stream: ${stream}
    handlers: [{ event: order.*, agent: billing, prompt: "order {{id}}" }]
  - name: pings
    source: nats
    url: nats://127.0.0.1:4222
    subject: "${subject}.pings"
    handlers: [{ event: ping, agent: triage, prompt: "ping {{n}}" }]
`);
    await harness.triggers.start();
    await waitForState(harness, 'orders', 'connected');
    await waitForState(harness, 'pings', 'connected');
  });
  afterAll(async () => {
    await harness?.close();
    await (await nc?.jetstreamManager())?.streams.delete(stream).catch(() => undefined);
    await nc?.close();
    await proxy?.close();
  });

  const publish = (id: string) =>
    js.publish(`${subject}.orders.created`, JSON.stringify({ type: 'order.created', id }));
  const promptsFor = (agent: string) =>
    harness.runs.calls.filter((call) => call.agentName === agent).map((call) => call.prompt);

  it('reads a JetStream stream through a durable consumer and acks what it stored', async () => {
    await publish('n1');
    await vi.waitFor(() => expect(promptsFor('billing')).toEqual(['order n1']), { timeout: 10_000 });
    const info = await (await nc.jetstreamManager()).consumers.info(stream, 'agent-gateway-orders');
    await vi.waitFor(async () =>
      expect((await (await nc.jetstreamManager()).consumers.info(stream, 'agent-gateway-orders')).num_ack_pending).toBe(
        0,
      ),
    );
    expect(info.config.ack_policy).toBe('explicit');
    expect((await harness.store.list({ name: 'orders' }))[0].dedupe_key).toMatch(new RegExp(`^msg:${stream}:1:`));
  });

  it('loses nothing across a dropped connection: the durable consumer resumes where it stopped', async () => {
    proxy.cut();
    await waitForState(harness, 'orders', 'backing_off');
    for (const id of ['n2', 'n3', 'n4']) await publish(id);
    await proxy.restore();
    await waitForState(harness, 'orders', 'connected');
    await vi.waitFor(
      () => expect(promptsFor('billing').sort()).toEqual(['order n1', 'order n2', 'order n3', 'order n4']),
      { timeout: 10_000 },
    );
    expect(harness.triggers.intake.stats().find((entry) => entry.name === 'orders')).toMatchObject({
      received: 4,
      duplicates: 0,
    });
  });

  it('subscribes to a core NATS subject, deduping by the Nats-Msg-Id header', async () => {
    const h = headers();
    h.set('Nats-Msg-Id', 'p-1');
    nc.publish(`${subject}.pings`, JSON.stringify({ type: 'ping', n: 1 }), { headers: h });
    nc.publish(`${subject}.pings`, JSON.stringify({ type: 'ping', n: 1 }), { headers: h });
    nc.publish(`${subject}.pings`, JSON.stringify({ type: 'ping', n: 2 }));
    await nc.flush();
    await vi.waitFor(() =>
      expect(harness.triggers.intake.stats().find((entry) => entry.name === 'pings')).toMatchObject({
        received: 3,
        duplicates: 1,
      }),
    );
    await vi.waitFor(() => expect(promptsFor('triage').sort()).toEqual(['ping 1', 'ping 2']));
  });
});
