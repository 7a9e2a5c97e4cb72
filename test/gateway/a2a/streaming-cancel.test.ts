import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, discover, rpc, startA2aGateway, userMessage, type A2aGateway } from './a2a-harness.js';

describe('A2A streaming and cancellation', () => {
  let gateway: A2aGateway;
  let token: string;
  beforeAll(async () => {
    gateway = await startA2aGateway();
    token = (await gateway.createToken('helper')).token;
  });
  afterAll(() => gateway.stop());

  it('streams the answer as artifact chunks between the task and its final status (SendStreamingMessage)', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'alpha beta gamma delta', chunks: 4 });
    const client = await discover(gateway.agentUrl('helper'));
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(userMessage('stream it'), bearer(token))) events.push(event);

    const cases = events.map((event) => event.payload?.$case);
    expect(cases[0]).toBe('task');
    expect(cases.filter((name) => name === 'artifactUpdate').length).toBeGreaterThanOrEqual(4);
    const chunks = events.flatMap((event) =>
      event.payload?.$case === 'artifactUpdate' ? event.payload.value.artifact!.parts : [],
    );
    expect(chunks.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('')).toBe(
      'alpha beta gamma delta',
    );
    const last = events.at(-1)!.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('finishes the task when the streaming client leaves early, with the whole answer', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'a long answer that keeps streaming', chunks: 6, chunkDelayMs: 30 });
    const client = await discover(gateway.agentUrl('helper'));
    const leave = new AbortController();
    const stream = client.sendMessageStream(userMessage('talk a while'), { ...bearer(token), signal: leave.signal });
    const first = await stream.next();
    const task = first.value?.payload?.$case === 'task' ? first.value.payload.value : undefined;
    leave.abort();
    await stream.return(undefined).catch(() => undefined);

    await gateway.app.runs.live(task!.metadata!.run_id as string)?.result;
    const read = await client.getTask({ tenant: '', id: task!.id, historyLength: undefined }, bearer(token));
    expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(read.artifacts[0].parts.map((part) => (part.content?.$case === 'text' ? part.content.value : ''))).toEqual([
      'a long answer that keeps streaming',
    ]);
  });

  it('shows a tool call as a working status naming the tool', async () => {
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' } }] },
      { kind: 'text', text: 'It is now.' },
    );
    const client = await discover(gateway.agentUrl('helper'));
    const statuses: string[] = [];
    for await (const event of client.sendMessageStream(userMessage('what time is it?'), bearer(token))) {
      const content =
        event.payload?.$case === 'statusUpdate' ? event.payload.value.status?.message?.parts[0]?.content : undefined;
      if (content?.$case === 'text') statuses.push(content.value);
    }
    expect(statuses).toEqual(['Using the tool get_current_time', 'It is now.']);
  });

  it('cancels a running task: the run is cancelled and the stream ends with a canceled status', async () => {
    gateway.upstream.enqueue({ kind: 'hang' });
    const client = await discover(gateway.agentUrl('helper'));
    const stream = client.sendMessageStream(userMessage('take forever'), bearer(token));
    const first = await stream.next();
    const task = first.value?.payload?.$case === 'task' ? first.value.payload.value : undefined;
    expect(task?.status?.state).toBe(TaskState.TASK_STATE_WORKING);

    const cancelled = await client.cancelTask({ tenant: '', id: task!.id, metadata: undefined }, bearer(token));
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    const rest: StreamResponse[] = [];
    for await (const event of stream) rest.push(event);
    const last = rest.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const run = await gateway.app.runs.find(task!.metadata!.run_id as string);
    expect(run?.run.status).toBe('cancelled');
    // Cancelled already: a terminal task is not cancelable (TaskNotCancelableError), the SDK answered it again.
    await expect(
      client.cancelTask({ tenant: '', id: task!.id, metadata: undefined }, bearer(token)),
    ).rejects.toBeInstanceOf(TaskNotCancelableError);
  });

  it('cancels with the v0.3 tasks/cancel method and refuses (-32002) to cancel it again, or a finished task', async () => {
    gateway.upstream.enqueue({ kind: 'hang' });
    const client = await discover(gateway.agentUrl('helper'));
    const stream = client.sendMessageStream(userMessage('hang on'), bearer(token));
    const first = await stream.next();
    const taskId = first.value?.payload?.$case === 'task' ? first.value.payload.value.id : '';
    const endpoint = `${gateway.app.url}/a2a/helper`;
    const auth = { authorization: `Bearer ${token}` };

    const cancel = await (
      await rpc(endpoint, { jsonrpc: '2.0', id: 1, method: 'tasks/cancel', params: { id: taskId } }, auth)
    ).json();
    expect(cancel).toMatchObject({ result: { kind: 'task', id: taskId, status: { state: 'canceled' } } });
    for await (const event of stream) void event;
    const twice = await (
      await rpc(endpoint, { jsonrpc: '2.0', id: 3, method: 'tasks/cancel', params: { id: taskId } }, auth)
    ).json();
    expect(twice).toMatchObject({ id: 3, error: { code: -32002 } });

    gateway.upstream.enqueue({ kind: 'text', text: 'done' });
    const finished = (await client.sendMessage(userMessage('quick'), bearer(token))) as { id: string };
    const again = await (
      await rpc(endpoint, { jsonrpc: '2.0', id: 2, method: 'tasks/cancel', params: { id: finished.id } }, auth)
    ).json();
    expect(again).toMatchObject({ error: { code: -32002 } });
  });
});
