import { connect as connectAmqp, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { connectAsync as connectMqtt, type MqttClient } from 'mqtt';
import { connect as connectNats, headers as natsHeaders, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { brokerUnavailable, uniqueSuffix } from '../gateway/triggers/listeners/broker-probe.js';
import { startItemsServer, type ItemsServer } from '../gateway/triggers/pollers/items-server.fixture.js';
import { startSseSource, type SseSource } from '../gateway/triggers/listeners/sse-source.fixture.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

// Under CI=true a missing broker fails the suite instead of skipping it.
const skip =
  (await brokerUnavailable('RabbitMQ', 5672)) ??
  (await brokerUnavailable('NATS', 4222)) ??
  (await brokerUnavailable('MQTT', 1883));

/** OTLP SpanKind. */
const CONSUMER = 5;
const suffix = uniqueSuffix();
const queue = `ag-otel-${suffix}`;
const subject = `ag.otel.${suffix}`;
const topic = `ag/otel/${suffix}`;

const yaml = (upstream: string, items: string, feed: string) => `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0 }
agents:
  - { name: poll_agent, model: upstream/test-model }
  - { name: amqp_agent, model: upstream/test-model }
  - { name: nats_agent, model: upstream/test-model }
  - { name: mqtt_agent, model: upstream/test-model }
  - { name: sse_agent, model: upstream/test-model }
trigger_settings: { poll_interval_ms: 20, source_backoff: { initial_seconds: 0.02, max_seconds: 0.2 } }
pollers:
  - name: tickets
    interval_minutes: 60
    http: { url: "${items}/tickets" }
    id_field: id
    handler: { agent: poll_agent, prompt: "ticket {{id}}" }
listeners:
  - name: orders
    source: amqp
    url: amqp://guest:guest@127.0.0.1:5672
    queue: ${queue}
    handlers: [{ event: "*", agent: amqp_agent, prompt: "order {{id}}" }]
  - name: pings
    source: nats
    url: nats://127.0.0.1:4222
    subject: ${subject}
    handlers: [{ event: "*", agent: nats_agent, prompt: "ping {{id}}" }]
  - name: sensors
    source: mqtt
    url: mqtt://127.0.0.1:1883
    topic: ${topic}
    handlers: [{ event: "*", agent: mqtt_agent, prompt: "sensor {{id}}" }]
  - name: feed
    source: sse
    url: "${feed}"
    handlers: [{ event: "*", agent: sse_agent, prompt: "feed {{id}}" }]
telemetry:
  enabled: true
  endpoint: "${'${OTLP_URL}'}"
`;

/** A producer's span, as another service would send it along with its message. */
const producer = (n: number) => ({
  traceId: `4bf92f3577b34da6a3ce929d0e0e47${n.toString().padStart(2, '0')}`,
  spanId: `00f067aa0ba902${n.toString().padStart(2, '0')}`,
});
const traceparentOf = ({ traceId, spanId }: { traceId: string; spanId: string }) => `00-${traceId}-${spanId}-01`;

describe.skipIf(skip)('poller and listener runs traced from their poll or message', () => {
  let receiver: OtlpReceiver;
  let upstream: FakeUpstream;
  let items: ItemsServer;
  let feed: SseSource;
  let app: TestApp;
  let amqp: ChannelModel;
  let amqpChannel: ConfirmChannel;
  let nats: NatsConnection;
  let mqtt: MqttClient;
  beforeAll(async () => {
    [receiver, upstream, items, feed] = await Promise.all([
      startOtlpReceiver(),
      startFakeUpstream(),
      startItemsServer(),
      startSseSource(),
    ]);
    upstream.setDefault({ kind: 'text', text: 'Handled.' });
    items.respond = () => ({ status: 200, body: [{ id: 't1' }] });
    app = await startTestApp(yaml(upstream.url, items.url, feed.url), { env: { OTLP_URL: receiver.url } });
    amqp = await connectAmqp('amqp://guest:guest@127.0.0.1:5672');
    amqpChannel = await amqp.createConfirmChannel();
    nats = await connectNats({ servers: 'nats://127.0.0.1:4222' });
    mqtt = await connectMqtt('mqtt://127.0.0.1:1883', { clientId: `ag-otel-${suffix}-pub`, protocolVersion: 5 });
    // Connected listeners: the operators' view says so once each has subscribed.
    await vi.waitFor(
      async () => {
        const response = await fetch(`${app.url}/api/v1/admin/triggers`, {
          headers: { authorization: `Bearer ${TEST_API_KEY}` },
        });
        const triggers = (await response.json()) as { kind: string; state?: string }[];
        const sources = triggers.filter((trigger) => trigger.kind !== 'webhook');
        expect(sources.map((source) => source.state)).toEqual(Array(5).fill('connected'));
      },
      { timeout: 15_000, interval: 20 },
    );
  });
  afterAll(async () => {
    await app?.stop();
    await amqpChannel?.deleteQueue(queue).catch(() => undefined);
    await amqp?.close();
    await nats?.close();
    await mqtt?.endAsync();
    await Promise.all([upstream?.close(), items?.close(), feed?.close(), receiver?.close()]);
  });

  /** The run span of `agent` once exported, and the span it links to. */
  async function runAndLinkedSpan(agent: string): Promise<{ run: ReceivedSpan; linked: ReceivedSpan }> {
    return vi.waitFor(
      async () => {
        await app.telemetry.flush();
        const run = receiver.spans.find((span) => span.name === `invoke_agent ${agent}`);
        expect(run).toBeDefined();
        expect(run!.links).toHaveLength(1);
        const linked = receiver.spans.find((span) => span.spanId === run!.links[0].spanId);
        expect(linked).toBeDefined();
        expect(linked!.traceId).toBe(run!.links[0].traceId);
        return { run: run!, linked: linked! };
      },
      { timeout: 15_000, interval: 50 },
    );
  }

  it("links a poller's run to the poll that found its item, a trace of its own", async () => {
    const { run, linked } = await runAndLinkedSpan('poll_agent');
    expect(linked).toMatchObject({ name: 'poll tickets', kind: CONSUMER, parentSpanId: undefined });
    expect(linked.attributes).toMatchObject({
      'messaging.operation.name': 'poll',
      'messaging.system': 'http',
      'messaging.destination.name': '/tickets',
    });
    expect(run.traceId).not.toBe(linked.traceId);
    expect(run.attributes['agent_gateway.run.source']).toBe('poller');
    // The poll request itself carried the poll span's trace context.
    expect(items.requests[0].traceparent).toBe(traceparentOf(linked));
  });

  it("continues an AMQP producer's trace from the message headers", async () => {
    amqpChannel.sendToQueue(queue, Buffer.from(JSON.stringify({ id: 'o1' })), {
      messageId: 'm-o1',
      headers: { traceparent: traceparentOf(producer(1)) },
    });
    await amqpChannel.waitForConfirms();
    const { run, linked } = await runAndLinkedSpan('amqp_agent');
    expect(linked).toMatchObject({
      name: 'receive orders',
      kind: CONSUMER,
      traceId: producer(1).traceId,
      parentSpanId: producer(1).spanId,
    });
    expect(linked.attributes).toMatchObject({
      'messaging.system': 'rabbitmq',
      'messaging.destination.name': queue,
      'messaging.message.id': 'm-o1',
    });
    expect(run.traceId).not.toBe(producer(1).traceId);
  });

  it("continues a NATS producer's trace from the message headers", async () => {
    const h = natsHeaders();
    h.set('traceparent', traceparentOf(producer(2)));
    nats.publish(subject, JSON.stringify({ id: 'p1' }), { headers: h });
    const { linked } = await runAndLinkedSpan('nats_agent');
    expect(linked).toMatchObject({
      name: 'receive pings',
      traceId: producer(2).traceId,
      parentSpanId: producer(2).spanId,
    });
    expect(linked.attributes['messaging.system']).toBe('nats');
  });

  it("continues an MQTT 5 producer's trace from the user properties", async () => {
    await mqtt.publishAsync(topic, JSON.stringify({ id: 's1' }), {
      qos: 1,
      properties: { userProperties: { traceparent: traceparentOf(producer(3)) } },
    });
    const { linked } = await runAndLinkedSpan('mqtt_agent');
    expect(linked).toMatchObject({
      name: 'receive sensors',
      traceId: producer(3).traceId,
      parentSpanId: producer(3).spanId,
    });
    expect(linked.attributes['messaging.destination.name']).toBe(topic);
  });

  it('starts a trace of its own for an SSE message, which has no headers to carry one', async () => {
    feed.publish({ id: 'f1' });
    const { run, linked } = await runAndLinkedSpan('sse_agent');
    expect(linked).toMatchObject({ name: 'receive feed', kind: CONSUMER, parentSpanId: undefined });
    expect(linked.attributes['messaging.system']).toBe('sse');
    expect(run.traceId).not.toBe(linked.traceId);
  });
});
