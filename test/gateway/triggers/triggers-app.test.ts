import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { runCli } from '../../cli/run-cli.js';
import { hmacHex } from './webhooks/signing.js';
import { startItemsServer, type ItemsServer } from './pollers/items-server.fixture.js';
import { startSseSource, type SseSource } from './listeners/sse-source.fixture.js';

const yaml = (upstream: string, items: string, feed: string) => `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0 }
agents:
  - { name: helper, model: upstream/test-model }
webhook_settings: { max_attempts: 1, poll_interval_ms: 20 }
webhooks:
  - name: shop
    verification: hmac-sha256
    secret: shop-secret
    handlers: [{ event: shop.*, agent: helper, prompt: "webhook {{id}}" }]
trigger_settings: { max_attempts: 1, poll_interval_ms: 20, source_backoff: { initial_seconds: 0.02, max_seconds: 0.2 } }
pollers:
  - name: tickets
    interval_minutes: 60
    http: { url: "${items}/tickets" }
    id_field: id
    handler: { agent: helper, prompt: "ticket {{id}}" }
listeners:
  - name: feed
    source: sse
    url: "${feed}"
    handlers: [{ event: "*", agent: helper, prompt: "feed {{type}}" }]
  - name: unreachable
    source: sse
    url: "http://127.0.0.1:9/events"
`;

describe('triggers through the whole app', () => {
  let upstream: FakeUpstream;
  let items: ItemsServer;
  let feed: SseSource;
  let app: TestApp;
  beforeAll(async () => {
    [upstream, items, feed] = await Promise.all([startFakeUpstream(), startItemsServer(), startSseSource()]);
    items.respond = () => ({ status: 200, body: [{ id: 't1' }] });
    app = await startTestApp(yaml(upstream.url, items.url, feed.url));
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([upstream?.close(), items?.close(), feed?.close()]);
  });

  const api = async (method: string, path: string, token: string | null = TEST_API_KEY) => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const userPrompts = () => upstream.chatRequests().map((request) => request.body.messages.at(-1).content);
  const cli = (...args: string[]) =>
    runCli([...args, '--host', '127.0.0.1', '--port', new URL(app.url).port, '--token', TEST_API_KEY]);

  it('starts real agent runs from a poller and a listener, recorded with their source', async () => {
    feed.publish({ type: 'alert' });
    await vi.waitFor(() => expect(userPrompts().sort()).toEqual(['feed alert', 'ticket t1']), { timeout: 10_000 });
    await vi.waitFor(
      async () => {
        const runs = (await api('GET', '/api/v1/admin/runs')).body as { source: string; status: string }[];
        expect(runs.map((run) => [run.source, run.status]).sort()).toEqual([
          ['listener', 'completed'],
          ['poller', 'completed'],
        ]);
      },
      { timeout: 10_000 },
    );
  });

  it('lists every trigger with its state, counts and inbox, and the dead letters, to operators only', async () => {
    upstream.setDefault({ kind: 'error', status: 400, body: { error: { message: 'bad model' } } });
    feed.publish({ type: 'boom' });
    const body = JSON.stringify({ type: 'order.created', id: 'w1' });
    const posted = await fetch(`${app.url}/webhooks/shop`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-signature': hmacHex(body, 'shop-secret') },
    });
    expect(posted.status).toBe(202);
    await vi.waitFor(
      async () => expect((await api('GET', '/api/v1/admin/triggers/deliveries?status=dead')).body).toHaveLength(2),
      { timeout: 10_000 },
    );

    const triggers = (await api('GET', '/api/v1/admin/triggers')).body as any[];
    expect(triggers.map((trigger) => [trigger.kind, trigger.name, trigger.source])).toEqual([
      ['webhook', 'shop', 'hmac-sha256'],
      ['poller', 'tickets', 'http'],
      ['listener', 'feed', 'sse'],
      ['listener', 'unreachable', 'sse'],
    ]);
    expect(triggers[0]).toMatchObject({
      state: 'connected',
      counts: { received: 1, duplicates: 0, rejected: 0, runs_started: 1 },
      inbox: { pending: 0, running: 0, done: 0, dead: 1, oldest_pending_age_seconds: 0 },
      last_event_at: expect.any(String),
    });
    expect(triggers[1]).toMatchObject({
      state: 'connected',
      counts: { received: 1, runs_started: 1 },
      inbox: { done: 1, dead: 0 },
      next_attempt_at: expect.any(String),
    });
    expect(triggers[2]).toMatchObject({
      state: 'connected',
      counts: { received: 2, runs_started: 2 },
      inbox: { done: 1, dead: 1 },
    });
    expect(triggers[3]).toMatchObject({
      state: expect.stringMatching(/^(backing_off|connecting)$/),
      last_error: expect.any(String),
      counts: { received: 0 },
    });

    const failed = (await api('GET', '/api/v1/admin/triggers/deliveries?status=dead')).body as any[];
    expect(failed.map((delivery) => [delivery.kind, delivery.trigger, delivery.event, delivery.status]).sort()).toEqual(
      [
        ['listener', 'feed', 'boom', 'dead'],
        ['webhook', 'shop', 'shop.order.created', 'dead'],
      ],
    );
    expect(failed.every((delivery) => delivery.run_ids.length === 1 && /bad model/.test(delivery.last_error))).toBe(
      true,
    );
    expect((await api('GET', '/api/v1/admin/triggers/deliveries?kind=poller')).body).toHaveLength(1);

    expect((await api('GET', '/api/v1/admin/triggers', null)).status).toBe(401);
    const { token } = await app.tokens.create({ agent_name: 'helper', scopes: ['chat'] });
    expect((await api('GET', '/api/v1/admin/triggers', token)).status).toBe(403);
    expect((await api('GET', '/api/v1/admin/triggers/deliveries?status=nope')).status).toBe(400);
  });

  it('replays a dead letter from the API and the CLI; 409 when not dead, 404 when unknown', async () => {
    upstream.setDefault((request) => ({ kind: 'text', text: `ok: ${request.body.messages.at(-1).content}` }));
    const failed = (await api('GET', '/api/v1/admin/triggers/deliveries?status=dead')).body as any[];
    const listenerEvent = failed.find((delivery) => delivery.kind === 'listener');
    const webhookDelivery = failed.find((delivery) => delivery.kind === 'webhook');

    const replayed = await api('POST', `/api/v1/admin/triggers/deliveries/${listenerEvent.id}/replay`);
    expect(replayed).toMatchObject({ status: 200, body: { id: listenerEvent.id, status: 'pending', attempts: 0 } });
    // The deprecated name answers the same.
    const again = await api('POST', `/api/v1/admin/triggers/deliveries/${listenerEvent.id}/retry`);
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'delivery_not_dead' } } });
    expect(await api('POST', '/api/v1/admin/triggers/deliveries/evt_nope/replay')).toMatchObject({
      status: 404,
      body: { error: { code: 'delivery_not_found' } },
    });

    const cliRetry = await cli('triggers', 'replay', webhookDelivery.id);
    expect(cliRetry.code, cliRetry.stderr).toBe(0);
    expect(cliRetry.stdout).toMatch(/status:\s+pending/);
    await vi.waitFor(
      async () => expect((await api('GET', '/api/v1/admin/triggers/deliveries?status=dead')).body).toEqual([]),
      { timeout: 10_000 },
    );
    expect(userPrompts().slice(-2).sort()).toEqual(['feed boom', 'webhook w1']);
  });

  it('prints the triggers and their deliveries from the CLI', async () => {
    const [list, deliveries] = await Promise.all([
      cli('triggers'),
      cli('triggers', 'deliveries', '--status', 'done', '--json'),
    ]);
    expect(list.code, list.stderr).toBe(0);
    const [header, ...rows] = list.stdout.trimEnd().split('\n');
    expect(header.split(/\s+/).slice(0, 9)).toEqual([
      'KIND',
      'NAME',
      'SOURCE',
      'STATE',
      'PENDING',
      'RUNNING',
      'DONE',
      'DEAD',
      'OLDEST_PENDING_S',
    ]);
    // Every webhook delivery and trigger event is done by now: three, one of them replayed.
    expect(rows.map((row) => row.split(/\s+/).slice(4, 8))).toEqual([
      ['0', '0', '1', '0'],
      ['0', '0', '1', '0'],
      ['0', '0', '2', '0'],
      ['0', '0', '0', '0'],
    ]);
    expect(rows.map((row) => row.split(/\s+/).slice(0, 3))).toEqual([
      ['webhook', 'shop', 'hmac-sha256'],
      ['poller', 'tickets', 'http'],
      ['listener', 'feed', 'sse'],
      ['listener', 'unreachable', 'sse'],
    ]);
    expect(deliveries.code, deliveries.stderr).toBe(0);
    expect((JSON.parse(deliveries.stdout) as { trigger: string }[]).map((delivery) => delivery.trigger).sort()).toEqual(
      ['feed', 'feed', 'shop', 'tickets'],
    );
  });

  it('exports the inbox per source and state on /metrics', async () => {
    const response = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } });
    const text = await response.text();
    expect(text).toContain('agent_gateway_inbox_items{kind="listener",name="feed",state="done"} 2');
    expect(text).toContain('agent_gateway_inbox_items{kind="webhook",name="shop",state="dead"} 0');
    expect(text).toContain('agent_gateway_inbox_oldest_pending_age_seconds{kind="poller",name="tickets"} 0');
  });
});
