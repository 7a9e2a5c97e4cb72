import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, startGateway, type GatewayHarness } from './openai-harness.js';

describe('a client that goes away', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  // Node keeps a socket whose client aborted mid-request open until the client gives it up, so this stop takes seconds.
  afterAll(() => gateway.stop());

  const waitFor = async (condition: () => boolean) => {
    while (!condition()) await sleep(5);
  };

  it('cancels a streamed run, and its record says so', async () => {
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'a long answer that trickles in slowly, word by word',
      chunks: 12,
      chunkDelayMs: 40,
    });
    const abort = new AbortController();
    const response = await fetch(`${gateway.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'x' }], stream: true }),
      signal: abort.signal,
    });
    const runId = response.headers.get('x-run-id')!;
    const run = gateway.app.runs.live(runId);
    expect(run).toBeDefined();
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    const result = await run!.result;
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'client_closed' } });
    expect((await gateway.app.runs.find(runId))?.run).toMatchObject({
      status: 'cancelled',
      error_code: 'client_closed',
      steps: 1,
    });
  });

  it('lets a non-streamed run finish and records it', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'worth waiting for', delayMs: 150 });
    const before = gateway.upstream.chatRequests().length;
    const abort = new AbortController();
    const request = fetch(`${gateway.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'x' }] }),
      signal: abort.signal,
    }).catch(() => undefined);
    await waitFor(() => gateway.upstream.chatRequests().length > before);
    const [run] = gateway.app.runs.active();
    abort.abort();
    await request;
    expect(await run.result).toMatchObject({ status: 'completed', output: 'worth waiting for' });
    expect((await gateway.app.runs.find(run.runId))?.run.status).toBe('completed');
  });
});
