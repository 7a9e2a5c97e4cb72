import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseConfigText } from '../../../../src/config/index.js';
import { createTriggers } from '../../../../src/gateway/triggers/index.js';
import { AGENTS_YAML, startTriggerHarness, TestClock, type TriggerHarness } from '../trigger-harness.js';

const YAML = `
trigger_settings: { max_attempts: 3, backoff_seconds: 10, max_backoff_seconds: 15 }
listeners:
  - name: orders
    source: redis
    url: redis://127.0.0.1:6379
    channel: orders
    handlers:
      - { event: order.*, agent: billing, prompt: "bill {{id}}" }
      - { event: order.created, agent: triage, prompt: "triage {{id}}" }
`;

let harness: TriggerHarness;
let clock: TestClock;
beforeEach(async () => {
  clock = new TestClock();
  // The listener is never started: events go straight into the intake, as a source would hand them over.
  harness = await startTriggerHarness(YAML, { triggers: { now: clock.now } });
});
afterEach(() => harness.close());

const receive = (id: string, event = 'order.created') =>
  harness.triggers.intake.receive({ trigger: { kind: 'listener', name: 'orders' }, event, payload: { id } });

it('runs every matching handler, retries only the failed one with backoff, then keeps the event as a dead letter', async () => {
  harness.runs.behaviour = (request, index) =>
    request.agentName === 'triage'
      ? { runId: `run_${index}`, status: 'failed', error: 'model unavailable' }
      : { runId: `run_${index}`, status: 'completed' };
  const { item: event } = await receive('o1');
  await harness.triggers.worker.processDue();
  expect(harness.runs.calls.map((call) => [call.agentName, call.prompt, call.source, call.metadata])).toEqual([
    ['billing', 'bill o1', 'listener', { item_id: event.item_id, event: 'order.created', source: 'listener:orders' }],
    ['triage', 'triage o1', 'listener', { item_id: event.item_id, event: 'order.created', source: 'listener:orders' }],
  ]);
  const first = await harness.store.get(event.item_id);
  expect(first).toMatchObject({
    status: 'pending',
    attempts: 1,
    last_error: 'triage: run run_2 failed: model unavailable',
  });
  expect(Date.parse(first!.next_attempt_at) - clock.now().getTime()).toBe(10_000);

  for (const seconds of [10, 15]) {
    clock.advance(seconds);
    await harness.triggers.worker.processDue();
  }
  expect(harness.runs.calls.map((call) => call.agentName)).toEqual(['billing', 'triage', 'triage', 'triage']);
  expect(await harness.store.get(event.item_id)).toMatchObject({
    status: 'dead',
    attempts: 3,
    run_ids: ['run_1', 'run_2', 'run_3', 'run_4'],
  });
  expect(harness.triggers.worker.stats()).toEqual([{ group: 'listener:orders', runs_started: 4 }]);
});

it('ignores events no handler matches and makes events of a trigger removed from the config dead letters', async () => {
  const { item: ignored } = await receive('o2', 'user.created');
  expect(ignored.status).toBe('ignored');
  await receive('o3');

  // The restarted process no longer configures the listener.
  const config = parseConfigText(AGENTS_YAML, 'empty.yaml');
  const restarted = createTriggers({
    store: harness.store,
    runs: harness.runs,
    config,
    logger: harness.logger,
    now: clock.now,
  });
  await restarted.worker.processDue();
  expect(harness.runs.calls).toEqual([]);
  const [failed] = await harness.store.list({ status: 'dead' });
  expect(failed).toMatchObject({ event: 'order.created', last_error: 'listener "orders" is no longer configured' });
});
