import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { connectMcp, mcpYaml } from './mcp-harness.js';

describe('/mcp: progress while the run streams, and notifications/cancelled', () => {
  let gateway: TestGateway;
  let client: Client;
  beforeAll(async () => {
    gateway = await startTestGateway({ yaml: mcpYaml });
  });
  afterEach(() => client?.close());
  afterAll(() => gateway.close());
  const runs = async () => {
    const response = await gateway.app.inject('/api/v1/admin/runs?source=mcp', {
      headers: { authorization: `Bearer ${gateway.apiKey}` },
    });
    return (await response.json()) as { run_id: string; status: string }[];
  };

  it('sends the answer as progress notifications when the client asked for progress', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'One two three.', pieces: ['One ', 'two ', 'three.'] });
    client = await connectMcp(gateway.url);
    const progress: { progress: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'helper', arguments: { message: 'Count' } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'One two three.' }]);
    expect(progress.map((update) => update.message).join('')).toBe('One two three.');
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3]);
  });

  it("cancelling the call (the SDK sends notifications/cancelled) cancels the agent's run", async () => {
    gateway.upstream.enqueue({ kind: 'hang' });
    client = await connectMcp(gateway.url);
    const before = (await runs()).length;
    const abort = new AbortController();
    const call = client.callTool({ name: 'helper', arguments: { message: 'Take your time' } }, undefined, {
      signal: abort.signal,
    });
    await vi.waitFor(async () => expect((await runs()).length).toBe(before + 1));
    abort.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await vi.waitFor(async () => expect((await runs())[0]).toMatchObject({ status: 'cancelled' }), { timeout: 10_000 });
  });
});
