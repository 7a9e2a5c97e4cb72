import { TaskState, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  a2aYaml,
  answerText,
  bearer,
  discover,
  discoverLegacy,
  rpc,
  startA2aGateway,
  userMessage,
  type A2aGateway,
} from '../a2a-harness.js';
import { TEST_API_KEY } from '../../../support/app.js';
import { PUSH_YAML, startPushReceiver, type PushReceiver } from './push-receiver.js';

const VERSIONS = [
  { version: '1.0' as const, connect: discover },
  { version: '0.3' as const, connect: discoverLegacy },
];

describe('A2A push notifications', () => {
  let gateway: A2aGateway;
  let receiver: PushReceiver;
  let token: { token: string; token_id: string };
  let otherToken: { token: string; token_id: string };
  beforeAll(async () => {
    receiver = await startPushReceiver();
    gateway = await startA2aGateway({ yaml: a2aYaml({ extra: PUSH_YAML }) });
    token = await gateway.createToken('helper', ['a2a']);
    otherToken = await gateway.createToken('helper', ['a2a']);
  });
  afterAll(async () => {
    await gateway.stop();
    await receiver.close();
  });

  const finishedTask = async (client: Client, text: string): Promise<Task> => {
    gateway.upstream.enqueue({ kind: 'text', text });
    return (await client.sendMessage(userMessage('hello'), bearer(token.token))) as Task;
  };

  for (const { version, connect } of VERSIONS) {
    describe(`over A2A ${version}`, () => {
      it('the card says pushNotifications: true', async () => {
        const client = await connect(gateway.agentUrl('helper'));
        const card = await client.getAgentCard(bearer(token.token));
        expect(card.capabilities?.pushNotifications).toBe(true);
      });

      it('sets, gets, lists and deletes a task push config; another principal sees none of them', async () => {
        const client = await connect(gateway.agentUrl('helper'));
        const task = await finishedTask(client, 'Done.');
        const set = await client.createTaskPushNotificationConfig(
          {
            tenant: '',
            id: 'hook-1',
            taskId: task.id,
            url: `${receiver.url}/crud-${version}`,
            token: 'tok-1',
            authentication: undefined,
          },
          bearer(token.token),
        );
        expect(set).toMatchObject({ id: 'hook-1', taskId: task.id, url: `${receiver.url}/crud-${version}` });
        const got = await client.getTaskPushNotificationConfig(
          { tenant: '', taskId: task.id, id: 'hook-1' },
          bearer(token.token),
        );
        expect(got).toMatchObject({ id: 'hook-1', token: 'tok-1' });
        const listed = await client.listTaskPushNotificationConfig(
          { tenant: '', taskId: task.id, pageSize: 0, pageToken: '' },
          bearer(token.token),
        );
        expect(listed.configs.map((config) => config.id)).toEqual(['hook-1']);

        await expect(
          client.listTaskPushNotificationConfig(
            { tenant: '', taskId: task.id, pageSize: 0, pageToken: '' },
            bearer(otherToken.token),
          ),
        ).rejects.toThrow(/not found/i);
        await expect(
          client.createTaskPushNotificationConfig(
            {
              tenant: '',
              id: 'hijack',
              taskId: task.id,
              url: `${receiver.url}/x`,
              token: '',
              authentication: undefined,
            },
            bearer(otherToken.token),
          ),
        ).rejects.toThrow(/not found/i);
        // An operator reads every task, but where a task's updates go is its owner's to say.
        await expect(client.getTask({ tenant: '', id: task.id }, bearer(TEST_API_KEY))).resolves.toMatchObject({
          id: task.id,
        });
        await expect(
          client.createTaskPushNotificationConfig(
            { tenant: '', id: 'op', taskId: task.id, url: `${receiver.url}/x`, token: '', authentication: undefined },
            bearer(TEST_API_KEY),
          ),
        ).rejects.toThrow(/not found/i);

        await client.deleteTaskPushNotificationConfig(
          { tenant: '', taskId: task.id, id: 'hook-1' },
          bearer(token.token),
        );
        await expect(
          client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'hook-1' }, bearer(token.token)),
        ).rejects.toThrow(/not found/i);
      });

      it('refuses at set time a URL the SSRF rules refuse', async () => {
        const client = await connect(gateway.agentUrl('helper'));
        const task = await finishedTask(client, 'Done.');
        for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/hook', 'ftp://example.com/x']) {
          await expect(
            client.createTaskPushNotificationConfig(
              { tenant: '', id: 'bad', taskId: task.id, url, token: '', authentication: undefined },
              bearer(token.token),
            ),
          ).rejects.toThrow(/refused/);
        }
        // The refusal names the setting that would allow a private address.
        await expect(
          client.createTaskPushNotificationConfig(
            {
              tenant: '',
              id: 'bad',
              taskId: task.id,
              url: 'http://10.1.2.3/hook',
              token: '',
              authentication: undefined,
            },
            bearer(token.token),
          ),
        ).rejects.toThrow(/a2a\.push_notifications\.allow_private/);
        await expect(
          client.listTaskPushNotificationConfig(
            { tenant: '', taskId: task.id, pageSize: 0, pageToken: '' },
            bearer(token.token),
          ),
        ).resolves.toMatchObject({ configs: [] });
      });

      it('POSTs the task updates of a message that set a config, with its authentication, ending with the answer', async () => {
        const client = await connect(gateway.agentUrl('helper'));
        const path = `/sent-${version}`;
        gateway.upstream.enqueue({ kind: 'text', text: `Pushed over ${version}.` });
        const request = userMessage('push me');
        request.configuration = {
          acceptedOutputModes: [],
          returnImmediately: false,
          taskPushNotificationConfig: {
            tenant: '',
            id: '',
            taskId: '',
            url: `${receiver.url}${path}`,
            token: '',
            authentication: { scheme: 'Bearer', credentials: `secret-${version}` },
          },
        };
        const task = (await client.sendMessage(request, bearer(token.token))) as Task;
        expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        await vi.waitFor(
          () =>
            expect(receiver.acceptedTasks(path, version).at(-1)?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED),
          { timeout: 10_000 },
        );
        const tasks = receiver.acceptedTasks(path, version);
        expect(tasks.every((pushed) => pushed.id === task.id)).toBe(true);
        expect(answerText(tasks.at(-1)!)).toBe(`Pushed over ${version}.`);
        const pushes = receiver.received.filter((push) => push.path === path);
        expect(pushes.every((push) => push.headers.authorization === `Bearer secret-${version}`)).toBe(true);
      });
    });
  }

  it('v0.3 get and delete without a config id: the config named after the task (the default id), else the only one', async () => {
    const client = await discoverLegacy(gateway.agentUrl('helper'));
    const task = await finishedTask(client, 'Done.');
    const endpoint = `${gateway.app.url}/a2a/helper`;
    const auth = { authorization: `Bearer ${token.token}` };
    const call = async (method: string, params: object) =>
      (await (await rpc(endpoint, { jsonrpc: '2.0', id: 1, method, params }, auth)).json()) as {
        result?: any;
        error?: { code: number; message: string };
      };
    const url = `${receiver.url}/no-id`;

    // Set without an id: the config's id is the task's.
    const set = await call('tasks/pushNotificationConfig/set', { taskId: task.id, pushNotificationConfig: { url } });
    expect(set.result).toMatchObject({ taskId: task.id, pushNotificationConfig: { id: task.id, url } });
    expect((await call('tasks/pushNotificationConfig/get', { id: task.id })).result).toMatchObject({
      taskId: task.id,
      pushNotificationConfig: { id: task.id, url },
    });
    expect(await call('tasks/pushNotificationConfig/delete', { id: task.id })).toMatchObject({ result: null });
    expect((await call('tasks/pushNotificationConfig/list', { id: task.id })).result).toEqual([]);
    expect((await call('tasks/pushNotificationConfig/get', { id: task.id })).error?.code).toBe(-32001);

    // One config with an id of its own: it is the one meant; with two the caller must say which.
    await call('tasks/pushNotificationConfig/set', { taskId: task.id, pushNotificationConfig: { id: 'a', url } });
    expect((await call('tasks/pushNotificationConfig/get', { id: task.id })).result).toMatchObject({
      pushNotificationConfig: { id: 'a' },
    });
    await call('tasks/pushNotificationConfig/set', { taskId: task.id, pushNotificationConfig: { id: 'b', url } });
    for (const method of ['tasks/pushNotificationConfig/get', 'tasks/pushNotificationConfig/delete']) {
      const answer = await call(method, { id: task.id });
      expect(answer.error).toMatchObject({ code: -32602 });
      expect(answer.error?.message).toMatch(/pushNotificationConfigId/);
    }
    await call('tasks/pushNotificationConfig/delete', { id: task.id, pushNotificationConfigId: 'b' });
    expect(await call('tasks/pushNotificationConfig/delete', { id: task.id })).toMatchObject({ result: null });
    expect((await call('tasks/pushNotificationConfig/list', { id: task.id })).result).toEqual([]);
  });

  it('retries a refused delivery with backoff until the receiver takes it, keeping the updates in order', async () => {
    const client = await discover(gateway.agentUrl('helper'));
    const path = '/retry';
    receiver.status = 503;
    gateway.upstream.enqueue({ kind: 'text', text: 'Eventually.' });
    const request = userMessage('push me later');
    request.configuration = {
      acceptedOutputModes: [],
      returnImmediately: false,
      taskPushNotificationConfig: {
        tenant: '',
        id: 'r',
        taskId: '',
        url: `${receiver.url}${path}`,
        token: 't-retry',
        authentication: undefined,
      },
    };
    const task = (await client.sendMessage(request, bearer(token.token))) as Task;
    // The first update is refused again and again; the later ones wait behind it.
    await vi.waitFor(() => expect(receiver.received.filter((push) => push.path === path).length).toBeGreaterThan(2), {
      timeout: 10_000,
    });
    expect(receiver.acceptedTasks(path, '1.0')).toEqual([]);
    receiver.status = 200;
    await vi.waitFor(
      () => expect(receiver.acceptedTasks(path, '1.0').at(-1)?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED),
      { timeout: 10_000 },
    );
    const states = receiver.acceptedTasks(path, '1.0').map((pushed) => pushed.status?.state);
    expect(states.length).toBeGreaterThan(1);
    expect(states.indexOf(TaskState.TASK_STATE_COMPLETED)).toBe(states.length - 1);
    expect(new Set(receiver.acceptedTasks(path, '1.0').map((pushed) => pushed.id))).toEqual(new Set([task.id]));
    const pushes = receiver.received.filter((push) => push.path === path);
    expect(pushes.every((push) => push.headers['x-a2a-notification-token'] === 't-retry')).toBe(true);
  });

  it('pushes the end of a task whose streaming client left after the first event', async () => {
    const client = await discover(gateway.agentUrl('helper'));
    const path = '/left';
    gateway.upstream.enqueue({ kind: 'text', text: 'Finished without you.', chunks: 3, chunkDelayMs: 50 });
    const request = userMessage('stream and leave');
    request.configuration = {
      acceptedOutputModes: [],
      returnImmediately: false,
      taskPushNotificationConfig: {
        tenant: '',
        id: 'left',
        taskId: '',
        url: `${receiver.url}${path}`,
        token: '',
        authentication: undefined,
      },
    };
    const stream = client.sendMessageStream(request, bearer(token.token));
    const first = await stream.next();
    expect(first.done).toBe(false);
    await stream.return(undefined);
    await vi.waitFor(
      () => expect(receiver.acceptedTasks(path, '1.0').at(-1)?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED),
      { timeout: 10_000 },
    );
    expect(answerText(receiver.acceptedTasks(path, '1.0').at(-1)!)).toBe('Finished without you.');
  });
});
