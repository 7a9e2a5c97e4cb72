import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brokerUnavailable, uniqueSuffix } from './broker-probe.js';
import { startTcpProxy, type TcpProxy } from '../../../support/tcp-proxy.js';
import { FAST_SETTINGS_YAML, startTriggerHarness, waitForState, type TriggerHarness } from '../trigger-harness.js';

const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';
const skip = await brokerUnavailable('RabbitMQ', 5672);

describe.skipIf(skip)('amqp listener', () => {
  const suffix = uniqueSuffix();
  const queue = `ag-test-${suffix}`;
  const exchange = `ag-test-ex-${suffix}`;
  let proxy: TcpProxy;
  let harness: TriggerHarness;
  let publisher: ChannelModel;
  let channel: ConfirmChannel;
  beforeAll(async () => {
    proxy = await startTcpProxy({ port: 5672 });
    publisher = await connect(AMQP_URL);
    channel = await publisher.createConfirmChannel();
    harness = await startTriggerHarness(`${FAST_SETTINGS_YAML}
listeners:
  - name: orders
    source: amqp
    url: ${proxy.url('amqp', 'guest:guest')}
    queue: ${queue}
    exchange: ${exchange}
    binding_key: "orders.*"
    handlers: [{ event: order.*, agent: billing, prompt: "order {{id}}" }]
`);
    await harness.triggers.start();
    await waitForState(harness, 'orders', 'connected');
  });
  afterAll(async () => {
    await harness?.close();
    await channel?.deleteQueue(queue).catch(() => undefined);
    await channel?.deleteExchange(exchange).catch(() => undefined);
    await publisher?.close();
    await proxy?.close();
  });

  async function publish(id: string, messageId = `m-${id}`): Promise<void> {
    channel.publish(exchange, 'orders.created', Buffer.from(JSON.stringify({ type: 'order.created', id })), {
      messageId,
      persistent: true,
    });
    await channel.waitForConfirms();
  }
  const prompts = () => harness.runs.prompts();

  it('consumes through the exchange binding and dedupes a redelivered message id', async () => {
    await publish('a1');
    await harness.runsStarted(1);
    await publish('a1');
    await vi.waitFor(() => expect(harness.triggers.intake.stats()[0]).toMatchObject({ received: 2, duplicates: 1 }));
    expect(prompts()).toEqual(['order a1']);
    expect(harness.runs.calls[0]).toMatchObject({
      agentName: 'billing',
      source: 'listener',
      metadata: { source: 'listener:orders', event: 'order.created' },
    });
  });

  it('loses nothing across a dropped connection: messages sent meanwhile wait in the queue', async () => {
    const accepted = proxy.accepted();
    proxy.cut();
    await waitForState(harness, 'orders', 'backing_off');
    for (const id of ['a2', 'a3', 'a4']) await publish(id);
    await proxy.restore();
    await waitForState(harness, 'orders', 'connected');
    expect(proxy.accepted()).toBeGreaterThan(accepted);
    await harness.runsStarted(4);
    // The worker runs handlers concurrently, so runs start in no particular order.
    expect(prompts().sort()).toEqual(['order a1', 'order a2', 'order a3', 'order a4']);
  });

  it('acks only after the event is stored: a store failure sends the message back to the queue', async () => {
    const insert = harness.store.insert;
    let failures = 0;
    harness.store.insert = async (event) => {
      if (failures++ === 0) throw new Error('database is locked');
      return insert(event);
    };
    try {
      await publish('a5');
      await harness.runsStarted(5);
    } finally {
      harness.store.insert = insert;
    }
    expect(failures).toBe(2);
    expect(prompts().at(-1)).toBe('order a5');
    const queued = await channel.checkQueue(queue);
    expect(queued.messageCount).toBe(0);
  });
});
