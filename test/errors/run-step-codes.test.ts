import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOOL_ERROR_CATALOG } from '../../src/errors.js';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';

const YAML = `
auth: { api_keys: ["\${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
agents:
  - { name: clock, model: upstream/test-model, tools: [get_current_time] }
`;

// A failing tool step does not fail the run: its code is what the run detail shows an operator.
describe('failed steps recorded on a run carry catalog codes', () => {
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

  it('unknown_tool and invalid_arguments: a tool the agent lacks, and arguments that are not JSON', async () => {
    upstream.enqueue(
      {
        kind: 'tool_calls',
        calls: [
          { id: 'call_1', name: 'delete_everything', arguments: {} },
          { id: 'call_2', name: 'get_current_time', arguments: '{"timezone": ' },
        ],
      },
      { kind: 'text', text: 'I could not do that.' },
    );
    const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
    const { data, response } = await client.chat.completions
      .create({ model: 'clock', messages: [{ role: 'user', content: 'go' }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe('I could not do that.');
    const detail = await fetch(`${app.url}/api/v1/admin/runs/${response.headers.get('x-run-id')}`, {
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    const run = (await detail.json()) as { status: string; step_details: { kind: string; prompt_log: any }[] };
    expect(run.status).toBe('completed');
    const errors = run.step_details.filter((step) => step.kind === 'tool').map((step) => step.prompt_log.error);
    expect(errors).toEqual(
      expect.arrayContaining([
        { code: 'unknown_tool', message: expect.stringContaining('delete_everything') },
        { code: 'invalid_arguments', message: expect.stringContaining('not valid JSON') },
      ]),
    );
    expect(errors).toHaveLength(2);
    for (const { code } of errors) expect(Object.keys(TOOL_ERROR_CATALOG)).toContain(code);
  });

  it("a model call cut short by a cancellation records the run's code, cancelled", async () => {
    upstream.enqueue({ kind: 'hang' });
    const admin = { authorization: `Bearer ${TEST_API_KEY}` };
    // The gateway holds the response headers until the first token, so the run is found through the admin API.
    const pending = fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'clock', messages: [{ role: 'user', content: 'wait' }], stream: true }),
    });
    // The run is stored while the upstream works on the request (its insert commits after the request went out).
    const runId = await vi.waitFor(
      async () => {
        const listed = (await (
          await fetch(`${app.url}/api/v1/admin/runs?status=running`, { headers: admin })
        ).json()) as { run_id: string }[];
        expect(listed[0]?.run_id).toMatch(/^run_/);
        return listed[0].run_id;
      },
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect(upstream.openConnections()).toBe(1), { timeout: 10_000 });
    const cancelled = await fetch(`${app.url}/api/v1/admin/runs/${runId}/cancel`, { method: 'POST', headers: admin });
    expect(cancelled.status).toBe(200);
    await vi.waitFor(
      async () => {
        const run = (await (await fetch(`${app.url}/api/v1/admin/runs/${runId}`, { headers: admin })).json()) as {
          status: string;
          step_details: { kind: string; prompt_log: any }[];
        };
        expect(run).toMatchObject({ status: 'cancelled', step_details: [{ kind: 'model', status: 'failed' }] });
        expect(run.step_details[0]?.prompt_log.error).toMatchObject({ code: 'cancelled' });
      },
      { timeout: 10_000 },
    );
    await (await pending).text();
  });
});
