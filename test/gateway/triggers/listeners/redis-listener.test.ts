import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brokerUnavailable, uniqueSuffix } from './broker-probe.js';
import { FAST_SETTINGS_YAML, startTriggerHarness, waitForState, type TriggerHarness } from '../trigger-harness.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const skip = await brokerUnavailable('Redis', 6379);

describe.skipIf(skip)('redis listener', () => {
  const suffix = uniqueSuffix();
  const channel = `ag-test:${suffix}:orders`;
  let harness: TriggerHarness;
  let publisher: Redis;
  beforeAll(async () => {
    publisher = new Redis(REDIS_URL);
    harness = await startTriggerHarness(`${FAST_SETTINGS_YAML}
listeners:
  - name: orders
    source: redis
    url: ${REDIS_URL}
    channel: "${channel}"
    id_field: id
    handlers: [{ event: order.*, agent: billing, prompt: "order {{id}}" }]
  - name: audit
    source: redis
    url: ${REDIS_URL}
    pattern: "ag-test:${suffix}:*"
    event_field: meta.kind
    handlers: [{ event: "*", agent: triage, prompt: "audit {{meta.kind}}" }]
`);
    await harness.triggers.start();
    await waitForState(harness, 'orders', 'connected');
    await waitForState(harness, 'audit', 'connected');
  });
  afterAll(async () => {
    await harness?.close();
    publisher?.disconnect();
  });

  const subscribers = async () => ((await publisher.pubsub('NUMSUB', channel)) as [string, number])[1];
  const publish = (message: unknown) => publisher.publish(channel, JSON.stringify(message));
  const promptsFor = (agent: string) =>
    harness.runs.calls.filter((call) => call.agentName === agent).map((call) => call.prompt);

  it('runs handlers for channel and pattern subscriptions, reading the event type from event_field', async () => {
    await publish({ type: 'order.created', id: 'r1', meta: { kind: 'create' } });
    await harness.runsStarted(2);
    expect(promptsFor('billing')).toEqual(['order r1']);
    expect(promptsFor('triage')).toEqual(['audit create']);
    expect(harness.runs.calls.every((call) => call.source === 'listener')).toBe(true);
  });

  it('treats a message whose id_field was seen before as a duplicate and rejects non-JSON', async () => {
    const before = harness.runs.calls.length;
    await publish({ type: 'order.created', id: 'r1', meta: { kind: 'again' } });
    await publisher.publish(channel, 'not json');
    await harness.runsStarted(before + 1);
    await vi.waitFor(() =>
      expect(harness.triggers.intake.stats().find((entry) => entry.name === 'orders')).toMatchObject({
        duplicates: 1,
        rejected: 1,
      }),
    );
    expect(promptsFor('billing')).toEqual(['order r1']);
  });

  it('rejects a message nested deeper than server.max_json_depth, and keeps going', async () => {
    const before = harness.runs.calls.length;
    const rejected = () => harness.triggers.intake.stats().find((entry) => entry.name === 'orders')?.rejected ?? 0;
    const rejectedBefore = rejected();
    await publisher.publish(
      channel,
      `{"type":"order.deep","id":"deep","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    );
    await publish({ type: 'order.created', id: 'r-after-deep', meta: { kind: 'create' } });
    await harness.runsStarted(before + 2);
    expect(rejected()).toBe(rejectedBefore + 1);
    expect(promptsFor('billing')).toContain('order r-after-deep');
    expect(promptsFor('billing')).not.toContain('order deep');
  });

  it('reconnects and resubscribes after its connection is killed, losing nothing published after it is back', async () => {
    const clients = (await publisher.client('LIST')) as string;
    const id = /id=(\d+) .*name=agent-gateway:listener:orders /.exec(clients)?.[1];
    expect(id).toBeDefined();
    await publisher.client('KILL', 'ID', id!);
    await vi.waitFor(() =>
      expect(
        harness.logger.entries.some(
          (entry) =>
            entry.object.trigger === 'listener:orders' && entry.message === 'trigger source failed; backing off',
        ),
      ).toBe(true),
    );
    await waitForState(harness, 'orders', 'connected');
    // Pub/sub keeps nothing for absent subscribers, so the test publishes once the subscription is back.
    await vi.waitFor(async () => expect(await subscribers()).toBe(1));
    const billingBefore = promptsFor('billing').length;
    for (const n of [2, 3, 4]) await publish({ type: 'order.paid', id: `r${n}`, meta: { kind: 'pay' } });
    // The worker runs handlers concurrently, so runs start in no particular order.
    await vi.waitFor(
      () => expect(promptsFor('billing').slice(billingBefore).sort()).toEqual(['order r2', 'order r3', 'order r4']),
      { timeout: 10_000 },
    );
  });
});
