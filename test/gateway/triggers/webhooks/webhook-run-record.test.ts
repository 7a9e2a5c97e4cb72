import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../../../support/app.js';
import { describeEachDialect, type TestDatabase } from '../../../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../../../support/fake-upstream.js';
import { runCli } from '../../../cli/run-cli.js';
import { hmacHex } from './signing.js';

const yaml = (upstream: string) => `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0 }
agents:
  - { name: helper, model: upstream/test-model }
webhook_settings: { poll_interval_ms: 20 }
webhooks:
  - name: shop
    verification: hmac-sha256
    secret: shop-secret
    handlers: [{ event: shop.*, agent: helper, prompt: "order {{id}}" }]
`;

await describeEachDialect('a webhook delivery through the whole app', (dialect) => {
  let database: TestDatabase;
  let upstream: FakeUpstream;
  let app: TestApp;
  beforeAll(async () => {
    [database, upstream] = await Promise.all([dialect.create(), startFakeUpstream()]);
    upstream.setDefault((request) => ({ kind: 'text', text: `done: ${request.body.messages.at(-1).content}` }));
    app = await startTestApp(yaml(upstream.url), { dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  });
  afterAll(async () => {
    await app?.stop({ keepData: true });
    await Promise.all([upstream?.close(), database?.drop()]);
  });

  const api = async (path: string) => {
    const response = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } });
    return (await response.json()) as any;
  };

  it('starts a run that records its inbox item, shown in run detail by the API and the CLI', async () => {
    const body = JSON.stringify({ type: 'order.created', id: 'o-17' });
    const posted = await fetch(`${app.url}/webhooks/shop`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-signature': hmacHex(body, 'shop-secret') },
    });
    expect(posted.status).toBe(202);
    const { delivery_id: itemId } = (await posted.json()) as { delivery_id: string };

    const [delivery] = await vi.waitFor(
      async () => {
        const done = (await api('/api/v1/admin/triggers/deliveries?status=done')) as any[];
        expect(done).toHaveLength(1);
        return done;
      },
      { timeout: 10_000 },
    );
    expect(delivery).toMatchObject({ id: itemId, run_ids: [expect.any(String)] });
    const runId = delivery.run_ids[0] as string;

    const run = await api(`/api/v1/admin/runs/${runId}`);
    expect(run).toMatchObject({
      run_id: runId,
      source: 'webhook',
      status: 'completed',
      output: 'done: order o-17',
      triggered_by: { item_id: itemId, source: 'webhook:shop', event: 'shop.order.created' },
    });

    const shown = await runCli([
      'runs',
      'show',
      runId,
      '--host',
      '127.0.0.1',
      '--port',
      new URL(app.url).port,
      '--token',
      TEST_API_KEY,
    ]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(
      new RegExp(`triggered_by:\\s+webhook:shop shop\\.order\\.created \\(item ${itemId}\\)`),
    );
  });

  it('records no trigger on a run a client started', async () => {
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const runs = (await api('/api/v1/admin/runs?source=chat')) as any[];
    expect((await api(`/api/v1/admin/runs/${runs[0].run_id}`)).triggered_by).toBeNull();
  });
});
