import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  PermanentSourceError,
  type Deliver,
  type ListenerConnection,
  type OpenConnection,
} from '../../../../src/gateway/triggers/index.js';
import { ManualSleep, startTriggerHarness, waitForState, type TriggerHarness } from '../trigger-harness.js';

const YAML = `
trigger_settings: { source_backoff: { initial_seconds: 1, max_seconds: 5 } }
listeners:
  - { name: fake, source: redis, url: "redis://127.0.0.1:1", channel: c, handlers: [{ event: "*", agent: billing, prompt: "{{n}}" }] }
`;

/** A scripted client: each open() takes the next outcome; `drop` ends the current connection. */
class ScriptedClient {
  outcomes: ('ok' | Error)[] = [];
  opened = 0;
  deliver?: Deliver;
  private lose?: (reason: Error) => void;
  readonly open: OpenConnection = async ({ deliver }) => {
    this.opened += 1;
    const outcome = this.outcomes.shift() ?? 'ok';
    if (outcome instanceof Error) throw outcome;
    this.deliver = deliver;
    const closed = new Promise<Error>((resolve) => (this.lose = resolve));
    const connection: ListenerConnection = { closed, close: async () => this.lose?.(new Error('closed')) };
    return connection;
  };
  drop(reason = 'connection reset'): void {
    this.lose?.(new Error(reason));
  }
}

let harness: TriggerHarness;
let client: ScriptedClient;
let sleep: ManualSleep;
beforeEach(async () => {
  client = new ScriptedClient();
  sleep = new ManualSleep();
  harness = await startTriggerHarness(YAML, { triggers: { sleep: sleep.sleep, openConnection: () => client.open } });
});
afterEach(() => harness.close());

it('reconnects with doubling backoff, reports each state, and resets the backoff once connected', async () => {
  client.outcomes = [
    new Error('ECONNREFUSED'),
    new Error('ECONNREFUSED'),
    new Error('ECONNREFUSED'),
    new Error('ECONNREFUSED'),
    'ok',
  ];
  await harness.triggers.start();
  const delays = [];
  for (let count = 1; count <= 4; count += 1) {
    delays.push(await sleep.sleeping(count));
    expect(harness.status('fake')).toMatchObject({
      state: 'backing_off',
      failures: count,
      last_error: 'ECONNREFUSED',
      next_attempt_at: expect.any(String),
    });
    sleep.wake();
  }
  expect(delays).toEqual([1_000, 2_000, 4_000, 5_000]);
  await waitForState(harness, 'fake', 'connected');
  expect(harness.status('fake')).toMatchObject({ failures: 0, next_attempt_at: null });

  await client.deliver!({ body: JSON.stringify({ n: 1 }) });
  client.drop();
  expect(await sleep.sleeping(5)).toBe(1_000);
  expect(harness.status('fake')).toMatchObject({ state: 'backing_off', last_error: 'connection reset' });
  sleep.wake();
  await waitForState(harness, 'fake', 'connected');
  expect(client.opened).toBe(6);
  await harness.triggers.worker.processDue();
  expect(harness.runs.prompts()).toEqual(['1']);
});

it('gives up on a permanent failure and reports error; stop() ends a wait at once', async () => {
  client.outcomes = [new PermanentSourceError('answered 401')];
  await harness.triggers.start();
  expect(await waitForState(harness, 'fake', 'error')).toMatchObject({
    last_error: 'answered 401',
    next_attempt_at: null,
  });
  expect(sleep.delays).toEqual([]);

  client.outcomes = [new Error('down')];
  const restarted = await harness.restart();
  await restarted.start();
  await sleep.sleeping(1);
  await restarted.stop();
  expect(harness.status('fake').state).toBe('stopped');
  expect(client.opened).toBe(2);
});
