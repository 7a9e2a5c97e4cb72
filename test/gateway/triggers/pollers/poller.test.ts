import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, type TestDatabase } from '../../../support/databases.js';
import { startItemsServer, type ItemsServer } from './items-server.fixture.js';
import { ManualSleep, startTriggerHarness, waitForState, type TriggerHarness } from '../trigger-harness.js';

const pollerYaml = (url: string) => `
trigger_settings: { source_backoff: { initial_seconds: 2, max_seconds: 10 } }
pollers:
  - name: tickets
    interval_minutes: 0.5
    http: { url: "${url}/tickets", headers: { authorization: "Bearer poll-token" }, items_path: data.items }
    id_field: id
    handler: { agent: triage, prompt: "Ticket {{id}}: {{title}}" }
`;

const items = (...ids: number[]) => ({
  status: 200,
  body: { data: { items: ids.map((id) => ({ id, title: `t${id}` })) } },
});

await describeEachDialect('poller', (dialect) => {
  let server: ItemsServer;
  let database: TestDatabase;
  let harness: TriggerHarness;
  let sleep: ManualSleep;
  beforeAll(async () => {
    server = await startItemsServer();
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await harness.close();
    await database.drop();
  });

  async function start(): Promise<void> {
    database = await dialect.create();
    sleep = new ManualSleep();
    harness = await startTriggerHarness(pollerYaml(server.url), { database, triggers: { sleep: sleep.sleep } });
    await harness.triggers.start();
  }

  it('polls at start, runs each new item once, and remembers items across a restart', async () => {
    server.respond = () => items(1, 2);
    await start();
    await harness.runsStarted(2);
    // The two items' runs start side by side (worker concurrency above 1): in either order.
    expect(harness.runs.prompts().sort()).toEqual(['Ticket 1: t1', 'Ticket 2: t2']);
    expect(harness.runs.calls.find((call) => call.prompt === 'Ticket 1: t1')).toMatchObject({
      agentName: 'triage',
      source: 'poller',
      metadata: { source: 'poller:tickets', event: 'item' },
    });
    expect(server.requests[0].authorization).toBe('Bearer poll-token');
    expect(await sleep.sleeping(1)).toBe(30_000);
    expect(harness.status('tickets')).toMatchObject({ state: 'connected', failures: 0 });

    server.respond = () => items(1, 2, 3);
    sleep.wake();
    await harness.runsStarted(3);
    await sleep.sleeping(2);
    // Only the new item ran; the first two (in either order, as above) did not run again.
    expect(harness.runs.prompts().slice(0, 2).sort()).toEqual(['Ticket 1: t1', 'Ticket 2: t2']);
    expect(harness.runs.prompts().slice(2)).toEqual(['Ticket 3: t3']);

    sleep = new ManualSleep();
    server.respond = () => items(2, 3, 4);
    await (await harness.restart({ sleep: sleep.sleep })).start();
    await sleep.sleeping(1);
    await harness.runsStarted(4);
    expect(harness.runs.prompts().slice(3)).toEqual(['Ticket 4: t4']);
    expect((await harness.store.list({ kind: 'poller' })).map((event) => event.dedupe_key).sort()).toEqual([
      'id:1',
      'id:2',
      'id:3',
      'id:4',
    ]);
  });

  it('backs off doubling up to the cap while polls fail, and returns to the interval after a success', async () => {
    let failing = true;
    server.respond = () => (failing ? { status: 503, body: { error: 'down' } } : items(7));
    await start();
    expect(await sleep.sleeping(1)).toBe(2_000);
    expect(harness.status('tickets')).toMatchObject({
      state: 'backing_off',
      failures: 1,
      last_error: expect.stringContaining('answered 503'),
    });
    const delays = [];
    for (let count = 2; count <= 5; count += 1) {
      sleep.wake();
      delays.push(await sleep.sleeping(count));
    }
    expect(delays).toEqual([4_000, 8_000, 10_000, 10_000]);

    failing = false;
    sleep.wake();
    expect(await sleep.sleeping(6)).toBe(30_000);
    expect(harness.status('tickets')).toMatchObject({ state: 'connected', failures: 0 });
    await harness.runsStarted(1);

    failing = true;
    sleep.wake();
    // The backoff starts over from the first step.
    expect(await sleep.sleeping(7)).toBe(2_000);
  });

  it('counts items without an id as rejected and treats a response without the items array as a failed poll', async () => {
    server.respond = () => ({
      status: 200,
      body: { data: { items: [{ title: 'no id' }, { id: 'a', title: 'ok' }, { id: 'a', title: 'same id twice' }] } },
    });
    await start();
    await harness.runsStarted(1);
    await sleep.sleeping(1);
    expect(harness.runs.prompts()).toEqual(['Ticket a: ok']);
    expect(harness.triggers.intake.stats()).toEqual([
      { kind: 'poller', name: 'tickets', received: 1, duplicates: 0, rejected: 1, last_event_at: expect.any(String) },
    ]);

    server.respond = () => ({ status: 200, body: { data: { items: 'nope' } } });
    sleep.wake();
    await sleep.sleeping(2);
    await waitForState(harness, 'tickets', 'backing_off');
    expect(harness.status('tickets').last_error).toBe('items_path "data.items" is not an array in the response');
  });
});
