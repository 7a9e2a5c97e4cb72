import { randomUUID } from 'node:crypto';
import { TaskState, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerText,
  bearer,
  discover,
  discoverLegacy,
  startA2aGateway,
  userMessage,
  type A2aGateway,
} from './a2a-harness.js';

type ChatMessage = { role: string; content: string };

describe('A2A contexts', () => {
  let gateway: A2aGateway;
  let token: { token: string; token_id: string };
  beforeAll(async () => {
    gateway = await startA2aGateway();
    token = await gateway.createToken('helper', ['a2a']);
  });
  afterAll(() => gateway.stop());

  const lastSentMessages = () => (gateway.upstream.chatRequests().at(-1)!.body as { messages: ChatMessage[] }).messages;
  const turn = async (client: Client, text: string, answer: string, contextId?: string, credential = token.token) => {
    gateway.upstream.enqueue({ kind: 'text', text: answer });
    const task = (await client.sendMessage(userMessage(text, { contextId }), bearer(credential))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    return task;
  };

  for (const version of ['1.0', '0.3'] as const) {
    it(`continues the conversation of a context and starts a new context fresh (${version})`, async () => {
      const client =
        version === '1.0'
          ? await discover(gateway.agentUrl('helper'))
          : await discoverLegacy(gateway.agentUrl('helper'));
      expect(client.protocolVersion).toBe(version);
      const contextId = randomUUID();
      const first = await turn(client, `My name is Ada (${version}).`, 'Nice to meet you, Ada.', contextId);
      expect(first.contextId).toBe(contextId);

      const second = await turn(client, 'What is my name?', 'Your name is Ada.', contextId);
      expect(second.contextId).toBe(contextId);
      expect(second.id).not.toBe(first.id);
      expect(lastSentMessages().filter((message) => message.role !== 'system')).toEqual([
        { role: 'user', content: `My name is Ada (${version}).` },
        { role: 'assistant', content: 'Nice to meet you, Ada.' },
        { role: 'user', content: 'What is my name?' },
      ]);
      expect(answerText(second)).toBe('Your name is Ada.');

      const fresh = await turn(client, 'What is my name?', 'I do not know.');
      expect(fresh.contextId).not.toBe(contextId);
      expect(lastSentMessages().filter((message) => message.role !== 'system')).toEqual([
        { role: 'user', content: 'What is my name?' },
      ]);
    });
  }

  it("never continues another principal's context, even under the same context id", async () => {
    const client = await discover(gateway.agentUrl('helper'));
    const contextId = randomUUID();
    await turn(client, 'The password is swordfish.', 'Noted.', contextId);
    const stranger = await gateway.createToken('helper', ['a2a']);
    await turn(client, 'What is the password?', 'I do not know.', contextId, stranger.token);
    expect(JSON.stringify(lastSentMessages())).not.toContain('swordfish');
  });

  it('lists the tasks of one context with ListTasks (1.0)', async () => {
    const client = await discover(gateway.agentUrl('helper'));
    const contextId = randomUUID();
    const first = await turn(client, 'one', 'One.', contextId);
    const second = await turn(client, 'two', 'Two.', contextId);
    await turn(client, 'elsewhere', 'Elsewhere.');
    const listed = await client.listTasks(
      {
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 10,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      },
      bearer(token.token),
    );
    expect(listed.tasks.map((task) => task.id).sort()).toEqual([first.id, second.id].sort());
  });
});
