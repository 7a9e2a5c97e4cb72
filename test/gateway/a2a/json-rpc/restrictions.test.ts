import { randomUUID } from 'node:crypto';
import { SendMessageRequest, TaskState, type Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../../support/app.js';
import {
  answerText,
  bearer,
  discover,
  discoverLegacy,
  fetchCard,
  rpc,
  startA2aGateway,
  userMessage,
  type A2aGateway,
} from '../a2a-harness.js';

const skillMessage = (text: string, skill: string) =>
  SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], metadata: { skill_id: skill } },
  });

describe('A2A restrictions per skill and method', () => {
  let gateway: A2aGateway;
  let limited: { token: string; token_id: string };
  beforeAll(async () => {
    gateway = await startA2aGateway();
    // The helper's card lists answering-questions, summarizing and tool-get-current-time.
    limited = await gateway.createToken('helper', ['a2a'], {
      a2a: { skills: ['summarizing'], methods: ['message/send', 'GetTask', 'GetExtendedAgentCard'] },
    });
  });
  afterAll(() => gateway.stop());

  it('lets a token use the skill it was given', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'A summary.' });
    const client = await discover(gateway.agentUrl('helper'));
    const task = (await client.sendMessage(
      skillMessage('Summarize this', 'summarizing'),
      bearer(limited.token),
    )) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(task)).toBe('A summary.');
    // Limited to one skill, a message naming none uses that one.
    gateway.upstream.enqueue({ kind: 'text', text: 'Another summary.' });
    const implied = (await client.sendMessage(userMessage('Summarize that'), bearer(limited.token))) as Task;
    expect(answerText(implied)).toBe('Another summary.');
  });

  it('refuses a token limited to one skill on another skill, in both protocol versions', async () => {
    const requests = gateway.upstream.chatRequests().length;
    for (const client of [
      await discover(gateway.agentUrl('helper')),
      await discoverLegacy(gateway.agentUrl('helper')),
    ]) {
      await expect(
        client.sendMessage(skillMessage('What time is it?', 'answering-questions'), bearer(limited.token)),
      ).rejects.toThrow(/may not use the skill "answering-questions"/);
    }
    const response = await rpc(
      `${gateway.app.url}/a2a/helper`,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'SendMessage',
        params: {
          message: { messageId: 'm-7', role: 'ROLE_USER', parts: [{ text: 'hi' }], metadata: { skill_id: 'general' } },
        },
      },
      { authorization: `Bearer ${limited.token}`, 'a2a-version': '1.0' },
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      id: 7,
      error: { code: -32000, data: [{ reason: 'A2A_SKILL_NOT_ALLOWED', metadata: { code: 'a2a_skill_not_allowed' } }] },
    });
    expect(gateway.upstream.chatRequests()).toHaveLength(requests);
  });

  it('refuses a method the token was not given (message/send allowed, cancel and stream not)', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Done.' });
    const client = await discover(gateway.agentUrl('helper'));
    const task = (await client.sendMessage(userMessage('go'), bearer(limited.token))) as Task;
    await expect(
      client.getTask({ tenant: '', id: task.id, historyLength: undefined }, bearer(limited.token)),
    ).resolves.toMatchObject({ id: task.id });
    await expect(
      client.cancelTask({ tenant: '', id: task.id, metadata: undefined }, bearer(limited.token)),
    ).rejects.toThrow(/may not call CancelTask/);
    const legacy = await discoverLegacy(gateway.agentUrl('helper'));
    await expect(
      legacy.cancelTask({ tenant: '', id: task.id, metadata: undefined }, bearer(limited.token)),
    ).rejects.toThrow(/may not call tasks\/cancel/);
    const stream = legacy.sendMessageStream(userMessage('stream it'), bearer(limited.token));
    await expect(stream.next()).rejects.toThrow(/may not call message\/stream/);
    // A message that carries a push config sets one: refused to a token without that method.
    const pushing = userMessage('push it');
    pushing.configuration = {
      acceptedOutputModes: [],
      returnImmediately: false,
      taskPushNotificationConfig: {
        tenant: '',
        id: '',
        taskId: '',
        url: 'https://hooks.example.com/a2a',
        token: '',
        authentication: undefined,
      },
    };
    await expect(client.sendMessage(pushing, bearer(limited.token))).rejects.toThrow(/may not set push notification/);
    await expect(legacy.sendMessage(pushing, bearer(limited.token))).rejects.toThrow(/may not set push notification/);
  });

  it('gives a token holder the extended card listing only the skills it may use', async () => {
    const client = await discover(gateway.agentUrl('helper'));
    const publicCard = await fetchCard(gateway.agentUrl('helper'));
    expect(publicCard.capabilities?.extendedAgentCard).toBe(true);
    expect(publicCard.skills.map((skill) => skill.id)).toEqual(
      expect.arrayContaining(['answering-questions', 'summarizing']),
    );
    const extended = await client.getAgentCard(bearer(limited.token));
    expect(extended.skills.map((skill) => skill.id)).toEqual(['summarizing']);
    expect(extended.supportedInterfaces[0]?.url).toBe(`${gateway.app.url}/a2a/helper`);

    const unrestricted = await gateway.createToken('helper', ['a2a']);
    const full = await (await discover(gateway.agentUrl('helper'))).getAgentCard(bearer(unrestricted.token));
    expect(full.skills.length).toBe(publicCard.skills.length);
  });

  it('shows the restrictions on the token and refuses a method A2A does not define', async () => {
    const shown = await fetch(`${gateway.app.url}/gateway/tokens/${limited.token_id}`, {
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    expect(await shown.json()).toMatchObject({
      a2a: { skills: ['summarizing'], methods: ['SendMessage', 'GetTask', 'GetExtendedAgentCard'] },
    });
    const refused = await fetch(`${gateway.app.url}/gateway/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'helper', scopes: ['a2a'], a2a: { methods: ['tasks/delete'] } }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'unknown_a2a_method' } });
  });
});
