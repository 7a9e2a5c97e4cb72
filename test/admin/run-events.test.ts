import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { createFirehoseStats } from '../support/fake-upstream.js';
import { startAdminHarness, type AdminHarness } from './admin-harness.js';

interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Reads GET /api/v1/admin/runs/events with fetch; `next` waits for the next event matching the predicate. */
async function openRunEvents(baseUrl: string, key: string) {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/v1/admin/runs/events`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pending: StreamEvent[] = [];
  async function next(match: (event: StreamEvent) => boolean): Promise<StreamEvent> {
    for (;;) {
      const index = pending.findIndex(match);
      if (index >= 0) return pending.splice(index, 1)[0];
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) pending.push({ event, data: JSON.parse(data) as Record<string, unknown> });
      }
    }
  }
  return { response, next, close: () => abort.abort() };
}

describe('GET /api/v1/admin/runs/events', () => {
  let harness: AdminHarness;
  const streams: { close(): void }[] = [];
  beforeAll(async () => {
    harness = await startAdminHarness();
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await harness?.stop();
  });

  it('streams a run created, paused, resumed and ended, each with the run as in the list', async () => {
    const stream = await openRunEvents(harness.app.url, TEST_API_KEY);
    streams.push(stream);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
    await stream.next((event) => event.event === 'ready');

    let release!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    harness.upstream.enqueue({
      kind: 'firehose',
      chunks: 3,
      chunkBytes: 12,
      stats: createFirehoseStats(),
      gates: [{ at: 1, open }],
    });
    const { data, response } = await harness.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'hold on' }], stream: true })
      .withResponse();
    const read = (async () => {
      for await (const chunk of data) void chunk;
    })();
    const runId = response.headers.get('x-run-id')!;
    const ofRun = (type: string) => (event: StreamEvent) => event.event === type && event.data.run_id === runId;

    const created = await stream.next(ofRun('run-created'));
    expect(created.data).toMatchObject({ run_id: runId, agent_name: 'helper', status: 'running', source: 'chat' });
    expect((await harness.admin('POST', `/runs/${runId}/pause`)).status).toBe(200);
    expect((await stream.next(ofRun('run-status-changed'))).data).toMatchObject({ status: 'paused' });
    expect((await harness.admin('POST', `/runs/${runId}/resume`)).status).toBe(200);
    expect((await stream.next(ofRun('run-status-changed'))).data).toMatchObject({ status: 'running' });
    release();
    await read;
    const ended = await stream.next(ofRun('run-status-changed'));
    const listed = (await harness.admin('GET', '/runs?limit=1')).body[0];
    expect(ended.data).toEqual(listed);
    expect(ended.data).toMatchObject({ status: 'completed', steps: 1 });
  });

  it('ends open streams when the server shuts down (closing does not wait for dashboards)', async () => {
    const other = await startAdminHarness();
    const stream = await openRunEvents(other.app.url, TEST_API_KEY);
    await stream.next((event) => event.event === 'ready');
    await other.stop();
    await expect(stream.next(() => false)).rejects.toThrow('the stream ended');
  });

  it('is for operators only: no credential gets 401, an access token 403', async () => {
    const anonymous = await fetch(`${harness.app.url}/api/v1/admin/runs/events`);
    expect(anonymous.status).toBe(401);
    const { token } = await harness.app.tokens.create({ agent_name: 'helper', scopes: ['chat'] });
    const denied = await fetch(`${harness.app.url}/api/v1/admin/runs/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(denied.status).toBe(403);
  });
});
