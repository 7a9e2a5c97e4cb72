import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: helper
    model: upstream/test-model
`;

describe('telemetry off (the default)', () => {
  let upstream: FakeUpstream;
  let app: TestApp;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    app = await startTestApp(YAML, { env: { UPSTREAM_URL: upstream.url } });
  });
  afterAll(async () => {
    await app?.stop();
    await upstream?.close();
  });

  it('neither records a trace id nor passes an incoming traceparent on upstream', async () => {
    upstream.enqueue({ kind: 'text', text: 'Hi.' });
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_API_KEY}`,
        'content-type': 'application/json',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      },
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(app.telemetry.enabled).toBe(false);
    const [run] = await app.runs.list({ agentName: 'helper', limit: 1, offset: 0 });
    expect((await app.runs.find(run.run_id))!.run.trace_id).toBeNull();
    expect(upstream.chatRequests().at(-1)!.headers.traceparent).toBeUndefined();
    expect(app.logs.text).not.toContain('trace_id');
  });
});
