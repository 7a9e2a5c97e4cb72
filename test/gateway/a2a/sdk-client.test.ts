import { TaskState, type Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerText, bearer, discover, startA2aGateway, userMessage, type A2aGateway } from './a2a-harness.js';

describe('A2A with the official SDK client', () => {
  let gateway: A2aGateway;
  let token: { token: string; token_id: string };
  beforeAll(async () => {
    gateway = await startA2aGateway();
    token = await gateway.createToken('helper', ['a2a']);
  });
  afterAll(() => gateway.stop());

  it('discovers the agent from its card and gets its answer with a scoped token', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Paris is the capital of France.' });
    const client = await discover(gateway.agentUrl('helper'));
    expect(client.protocolVersion).toBe('1.0');

    const result = (await client.sendMessage(
      userMessage('What is the capital of France?'),
      bearer(token.token),
    )) as Task;
    expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(result)).toBe('Paris is the capital of France.');
    expect(result.artifacts).toHaveLength(1);
    expect(result.artifacts[0].parts).toHaveLength(1);

    const [sent] = gateway.upstream.chatRequests().slice(-1);
    expect(sent.body.messages.at(-1)).toEqual({ role: 'user', content: 'What is the capital of France?' });
  });

  it('records the task as a run of the agent with source a2a and the token that sent it', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Recorded.' });
    const client = await discover(gateway.agentUrl('helper'));
    const task = (await client.sendMessage(userMessage('record me'), bearer(token.token))) as Task;
    const runId = task.metadata?.run_id as string;
    expect(runId).toMatch(/^run_/);
    const stored = await gateway.app.runs.find(runId);
    expect(stored?.run).toMatchObject({
      agent_name: 'helper',
      source: 'a2a',
      status: 'completed',
      output: 'Recorded.',
      token_id: token.token_id,
    });
  });

  it('reads a finished task back with tasks/get', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Kept.' });
    const client = await discover(gateway.agentUrl('helper'));
    const sent = (await client.sendMessage(userMessage('keep this'), bearer(token.token))) as Task;
    const read = await client.getTask({ tenant: '', id: sent.id, historyLength: undefined }, bearer(token.token));
    expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(read)).toBe('Kept.');
    expect(read.history.map((message) => message.role)).toContain(1);
  });

  it('lists the tasks of the agent with ListTasks, newest first', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Listed.' });
    const client = await discover(gateway.agentUrl('helper'));
    const sent = (await client.sendMessage(userMessage('list me'), bearer(token.token))) as Task;
    const listed = await client.listTasks(
      {
        tenant: '',
        contextId: sent.contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 10,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      },
      bearer(token.token),
    );
    expect(listed.tasks.map((task) => task.id)).toEqual([sent.id]);
    expect(answerText(listed.tasks[0])).toBe('Listed.');
  });

  it('reports a failed run as a failed task with the error as its status message', async () => {
    gateway.upstream.enqueue({
      kind: 'error',
      status: 400,
      body: { error: { message: 'bad request upstream', type: 'invalid_request_error' } },
    });
    const client = await discover(gateway.agentUrl('helper'));
    const task = (await client.sendMessage(userMessage('fail please'), bearer(token.token))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const reason = task.status?.message?.parts[0]?.content;
    expect(reason?.$case === 'text' && reason.value.length > 0).toBe(true);
  });
});
