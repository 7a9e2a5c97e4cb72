import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startA2aGateway, type A2aGateway } from '../a2a-harness.js';

/** What a v0.3 peer sends: kebab-case methods, `kind` discriminators, no A2A-Version header. */
const v03Message = (text: string, messageId = `msg-${Math.random().toString(36).slice(2)}`) => ({
  kind: 'message',
  messageId,
  role: 'user',
  parts: [{ kind: 'text', text }],
});

describe('A2A v0.3 peers (raw JSON-RPC over fetch)', () => {
  let gateway: A2aGateway;
  let auth: Record<string, string>;
  let endpoint: string;
  beforeAll(async () => {
    gateway = await startA2aGateway();
    auth = { authorization: `Bearer ${(await gateway.createToken('helper')).token}` };
    endpoint = `${gateway.app.url}/a2a/helper`;
  });
  afterAll(() => gateway.stop());

  it('answers message/send with a v0.3 task', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Hello from v1 land.' });
    const response = await rpc(
      endpoint,
      { jsonrpc: '2.0', id: 7, method: 'message/send', params: { message: v03Message('hello?') } },
      auth,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { jsonrpc: string; id: number; result: any };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7 });
    expect(body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(body.result.artifacts[0].parts).toEqual([{ kind: 'text', text: 'Hello from v1 land.' }]);
    expect(body.result.status.message).toMatchObject({
      kind: 'message',
      role: 'agent',
      parts: [{ kind: 'text', text: 'Hello from v1 land.' }],
    });
    expect(body.result.metadata.run_id).toMatch(/^run_/);

    const read = await rpc(
      endpoint,
      { jsonrpc: '2.0', id: 8, method: 'tasks/get', params: { id: body.result.id } },
      auth,
    );
    const got = (await read.json()) as { result: any };
    expect(got.result).toMatchObject({ kind: 'task', id: body.result.id, status: { state: 'completed' } });
  });

  it('streams message/stream as SSE events ending with a final completed status', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'one two three', chunks: 3 });
    const response = await rpc(
      endpoint,
      { jsonrpc: '2.0', id: 'stream-1', method: 'message/stream', params: { message: v03Message('count') } },
      { ...auth, accept: 'text/event-stream' },
    );
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)) as { id: string; result: any });
    expect(events.every((event) => event.id === 'stream-1')).toBe(true);
    const kinds = events.map((event) => event.result.kind);
    expect(kinds[0]).toBe('task');
    const text = events
      .filter((event) => event.result.kind === 'artifact-update')
      .flatMap((event) => event.result.artifact.parts)
      .map((part: { text: string }) => part.text)
      .join('');
    expect(text).toBe('one two three');
    const last = events.at(-1)!.result;
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('answers errors of message/stream and tasks/resubscribe before their first event as an SSE stream carrying the JSON-RPC error', async () => {
    const sse = { ...auth, accept: 'text/event-stream' };
    const cases = [
      // No part the agent can read: refused before the task starts.
      [
        { jsonrpc: '2.0', id: 's-1', method: 'message/stream', params: { message: { ...v03Message(''), parts: [] } } },
        -32602,
      ],
      [{ jsonrpc: '2.0', id: 's-2', method: 'tasks/resubscribe', params: { id: 'no-such-task' } }, -32001],
      // Params the SDK refuses before it calls the handler.
      [{ jsonrpc: '2.0', id: 's-3', method: 'message/stream', params: [] }, -32602],
    ] as const;
    for (const [body, code] of cases) {
      const response = await rpc(endpoint, body, sse);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const text = await response.text();
      expect(text).toMatch(/^event: error\ndata: /);
      expect(JSON.parse(text.slice(text.indexOf('data: ') + 'data: '.length))).toMatchObject({
        jsonrpc: '2.0',
        id: body.id,
        error: { code },
      });
    }
  });

  it('answers an unknown method and an unknown task with the v0.3 error codes', async () => {
    const unknownMethod = await (
      await rpc(endpoint, { jsonrpc: '2.0', id: 1, method: 'tasks/explode', params: {} }, auth)
    ).json();
    expect(unknownMethod).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32601 } });
    const unknownTask = await (
      await rpc(endpoint, { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: 'no-such-task' } }, auth)
    ).json();
    expect(unknownTask).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32001 } });
  });

  it('answers a follow-up message to an unknown task with TaskNotFound (only a task waiting for input takes one)', async () => {
    const answer = await rpc(
      endpoint,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'message/send',
        params: { message: { ...v03Message('again'), taskId: 'some-task' } },
      },
      auth,
    );
    expect(await answer.json()).toMatchObject({ error: { code: -32001 } });
  });
});
