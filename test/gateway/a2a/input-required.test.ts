import { TaskState, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import { parseSse } from '../agui/agui-harness.js';
import {
  a2aYaml,
  answerText,
  bearer,
  discover,
  discoverLegacy,
  startA2aGateway,
  userMessage,
  type A2aGateway,
} from './a2a-harness.js';

const BOOKER = `
  - name: booker
    model: upstream/test-model
    requires_input:
      - name: ask_caller
        description: Ask the caller for a detail only they know
`;

type SentMessage = { role: string; content: string; tool_call_id?: string };

const statusText = (task: Task) => {
  const content = task.status?.message?.parts[0]?.content;
  return content?.$case === 'text' ? content.value : undefined;
};

describe('A2A input-required', () => {
  let gateway: A2aGateway;
  let token: { token: string; token_id: string };
  beforeAll(async () => {
    gateway = await startA2aGateway({ yaml: a2aYaml({ extra: BOOKER }) });
    token = await gateway.createToken('booker', ['a2a']);
  });
  afterAll(() => gateway.stop());

  const lastSent = () => (gateway.upstream.chatRequests().at(-1)!.body as { messages: SentMessage[] }).messages;

  const askThenAnswer = async (client: Client) => {
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ id: 'call_city', name: 'ask_caller', arguments: { question: 'Which city?' } }] },
      { kind: 'text', text: 'Booked a table in Paris.' },
    );
    const waiting = (await client.sendMessage(userMessage('Book me a table'), bearer(token.token))) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(waiting)).toBe('Which city?');
    const offered = (gateway.upstream.chatRequests().at(-1)!.body as { tools: { function: { name: string } }[] }).tools;
    expect(offered.map((tool) => tool.function.name)).toContain('ask_caller');

    const read = await client.getTask({ tenant: '', id: waiting.id, historyLength: undefined }, bearer(token.token));
    expect(read.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    const done = (await client.sendMessage(
      userMessage('Paris', { taskId: waiting.id, contextId: waiting.contextId }),
      bearer(token.token),
    )) as Task;
    expect(done.id).toBe(waiting.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(done)).toBe('Booked a table in Paris.');
    // The model got the caller's answer as the result of the question it asked, after the earlier turn.
    const sent = lastSent().filter((message) => message.role !== 'system');
    expect(sent[0]).toEqual({ role: 'user', content: 'Book me a table' });
    expect(sent.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_city', content: 'Paris' });
    return done;
  };

  it('puts the task in input-required when the agent asks, and completes it with the caller’s answer (1.0)', async () => {
    await askThenAnswer(await discover(gateway.agentUrl('booker')));
  });

  it('does the same for a v0.3 caller', async () => {
    await askThenAnswer(await discoverLegacy(gateway.agentUrl('booker')));
  });

  it('refuses a follow-up message to a task that is not waiting for input', async () => {
    const client = await discover(gateway.agentUrl('booker'));
    gateway.upstream.enqueue({ kind: 'text', text: 'Done at once.' });
    const finished = (await client.sendMessage(userMessage('Just do it'), bearer(token.token))) as Task;
    expect(finished.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect(
      client.sendMessage(
        userMessage('more', { taskId: finished.id, contextId: finished.contextId }),
        bearer(token.token),
      ),
    ).rejects.toThrow(/terminal state|not waiting for input/);
  });

  it('a new task in the context of an unanswered question sends no dangling tool call upstream, and closes the question', async () => {
    const client = await discover(gateway.agentUrl('booker'));
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ id: 'call_when', name: 'ask_caller', arguments: { question: 'When?' } }] },
      { kind: 'text', text: 'Here is the menu.' },
    );
    const waiting = (await client.sendMessage(userMessage('Book me a table'), bearer(token.token))) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // The caller moves on in the same context without answering.
    const next = (await client.sendMessage(
      userMessage('Show me the menu instead', { contextId: waiting.contextId }),
      bearer(token.token),
    )) as Task;
    expect(next.id).not.toBe(waiting.id);
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // Every tool call the model sees is followed by its result, as OpenAI-compatible upstreams require.
    const sent = lastSent();
    const asked = sent.findIndex((message) => (message as { tool_calls?: unknown[] }).tool_calls?.length);
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(sent[asked + 1]).toMatchObject({ role: 'tool', tool_call_id: 'call_when' });
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'Show me the menu instead' });
    // The question is closed: answering it now is refused.
    const old = await client.getTask({ tenant: '', id: waiting.id, historyLength: undefined }, bearer(token.token));
    expect(old.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(
      client.sendMessage(
        userMessage('Tonight', { taskId: waiting.id, contextId: waiting.contextId }),
        bearer(token.token),
      ),
    ).rejects.toThrow(/terminal state|not waiting for input/);
  });

  it('shows the wait to an operator: run status input_required in the admin API, a CUSTOM event over AG-UI', async () => {
    const client = await discover(gateway.agentUrl('booker'));
    gateway.upstream.enqueue({
      kind: 'tool_calls',
      calls: [{ id: 'call_size', name: 'ask_caller', arguments: { question: 'How many people?' } }],
    });
    const waiting = (await client.sendMessage(userMessage('Book a table for us'), bearer(token.token))) as Task;
    const runId = waiting.metadata!.run_id as string;
    const admin = { authorization: `Bearer ${TEST_API_KEY}` };
    const detail = await fetch(`${gateway.app.url}/api/v1/admin/runs/${runId}`, { headers: admin });
    expect(await detail.json()).toMatchObject({ run_id: runId, status: 'input_required', agent_name: 'booker' });
    const listed = await fetch(`${gateway.app.url}/api/v1/admin/runs?status=input_required`, { headers: admin });
    expect(((await listed.json()) as { run_id: string }[]).map((run) => run.run_id)).toContain(runId);

    const attached = await fetch(`${gateway.app.url}/agui/ws?run_id=${runId}`, { headers: admin });
    const events = parseSse(await attached.text()).map((message) => message.data as { type: string; name?: string });
    const asked = events.findIndex((event) => event.type === 'CUSTOM' && event.name === 'input_required');
    expect(events[asked]).toMatchObject({
      value: { tool_call_id: 'call_size', tool: 'ask_caller', arguments: expect.stringContaining('How many people?') },
    });
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');

    // Answered, the next run completes as usual.
    gateway.upstream.enqueue({ kind: 'text', text: 'Booked for four.' });
    const done = (await client.sendMessage(
      userMessage('Four', { taskId: waiting.id, contextId: waiting.contextId }),
      bearer(token.token),
    )) as Task;
    const next = await fetch(`${gateway.app.url}/api/v1/admin/runs/${done.metadata!.run_id as string}`, {
      headers: admin,
    });
    expect(await next.json()).toMatchObject({ status: 'completed' });
  });
});
