import { afterEach, beforeEach, expect, it } from 'vitest';
import { startSseSource, type SseSource } from './sse-source.fixture.js';
import { FAST_SETTINGS_YAML, startTriggerHarness, waitForState, type TriggerHarness } from '../trigger-harness.js';

const yaml = (url: string) => `${FAST_SETTINGS_YAML}
listeners:
  - name: feed
    source: sse
    url: "${url}"
    headers: { authorization: "Bearer feed-token" }
    handlers:
      - { event: order.*, agent: billing, prompt: "order {{id}} {{type}}" }
      - { event: ping, agent: triage, prompt: "ping {{n}}" }
`;

let source: SseSource;
let harness: TriggerHarness;
beforeEach(async () => {
  source = await startSseSource();
  harness = await startTriggerHarness(yaml(source.url));
});
afterEach(async () => {
  await harness.close();
  await source.close();
});

it('stores and runs every event, and after a dropped connection resumes from Last-Event-ID with none lost', async () => {
  source.publish({ type: 'order.created', id: 'o1' });
  source.publish({ type: 'order.paid', id: 'o1' });
  await harness.triggers.start();
  await harness.runsStarted(2);
  await waitForState(harness, 'feed', 'connected');

  source.drop();
  // Published while nobody is connected: only a replay from Last-Event-ID can deliver these.
  source.publish({ type: 'order.created', id: 'o2' });
  source.publish({ n: 1 }, { event: 'ping' });
  await harness.runsStarted(4);
  // Runs start in no particular order (the worker runs events concurrently); the store keeps arrival order.
  expect(harness.runs.prompts().sort()).toEqual([
    'order o1 order.created',
    'order o1 order.paid',
    'order o2 order.created',
    'ping 1',
  ]);
  expect(source.lastEventIds).toEqual([undefined, '2']);
  expect(
    harness.logger.entries.some(
      (entry) =>
        entry.message === 'trigger source failed; backing off' &&
        /^the event stream broke: /.test(String(entry.object.error)),
    ),
  ).toBe(true);

  source.publish({ type: 'order.refunded', id: 'o3' });
  await harness.runsStarted(5);
  const stored = await harness.store.list({ kind: 'listener' });
  expect(stored.map((event) => event.dedupe_key).sort()).toEqual(['msg:1', 'msg:2', 'msg:3', 'msg:4', 'msg:5']);
  expect(harness.triggers.intake.stats()).toMatchObject([{ name: 'feed', received: 5, duplicates: 0, rejected: 0 }]);
});

it('stores events no handler matches as ignored and rejects messages that are not JSON objects', async () => {
  await harness.triggers.start();
  await waitForState(harness, 'feed', 'connected');
  source.publish({ type: 'user.created' });
  source.publish([1, 2]);
  source.publish({ type: 'order.created', id: 'o9' });
  await harness.runsStarted(1);
  const stored = await harness.store.list({ kind: 'listener' });
  expect(stored.map((event) => [event.event, event.status]).sort()).toEqual([
    ['order.created', expect.stringMatching(/pending|processing|done/)],
    ['user.created', 'ignored'],
  ]);
  expect(harness.triggers.intake.stats()).toMatchObject([{ name: 'feed', received: 2, rejected: 1 }]);
});

it('retries 5xx answers with backoff but gives up on a 404, as EventSource does', async () => {
  source.failWith = 503;
  await harness.triggers.start();
  await waitForState(harness, 'feed', 'backing_off');
  source.failWith = undefined;
  await waitForState(harness, 'feed', 'connected');

  await harness.triggers.stop();
  source.failWith = 404;
  const restarted = await harness.restart();
  await restarted.start();
  const status = await waitForState(harness, 'feed', 'error');
  expect(status.last_error).toMatch(/answered 404/);
  // Giving up schedules no further attempt (the state says so), and stopping finds no connection opened since.
  expect(status.next_attempt_at).toBeNull();
  const connections = source.lastEventIds.length;
  await restarted.stop();
  expect(source.lastEventIds).toHaveLength(connections);
});
