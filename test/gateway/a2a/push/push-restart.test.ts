import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskState, type Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnServer, type ServerProcess } from '../../../admin/spawn-server.js';
import { TEST_API_KEY } from '../../../support/app.js';
import { tempDataDir } from '../../../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../../../support/fake-upstream.js';
import {
  a2aYaml,
  answerText,
  bearer,
  discover,
  discoverLegacy,
  startA2aGateway,
  userMessage,
  type A2aGateway,
} from '../a2a-harness.js';
import { PUSH_YAML, startPushReceiver, type PushReceiver } from './push-receiver.js';

const VERSIONS = [
  { version: '1.0' as const, connect: discover },
  { version: '0.3' as const, connect: discoverLegacy },
];

describe('A2A push notifications across a kill -9 of the sending gateway', () => {
  let upstream: FakeUpstream;
  let receiver: PushReceiver;
  let data: ReturnType<typeof tempDataDir>;
  let first: ServerProcess | undefined;
  let second: A2aGateway | undefined;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    receiver = await startPushReceiver();
    data = tempDataDir();
  });
  afterAll(async () => {
    await first?.kill('SIGKILL');
    await second?.stop({ keepData: true });
    await receiver.close();
    await upstream.close();
    data.remove();
  });

  it('delivers, after the restart, the updates of tasks that ended while the receiver was refusing them', async () => {
    const yaml = a2aYaml({ extra: PUSH_YAML });
    const configFile = join(data.dataDir, 'agent-gateway.yaml');
    writeFileSync(configFile, yaml.replace('${TEST_API_KEY}', TEST_API_KEY).replace('${UPSTREAM_URL}', upstream.url));
    first = await spawnServer(['--config', configFile, '--data-dir', data.dataDir], {});
    const created = await fetch(`${first.url}/gateway/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'helper', scopes: ['a2a'] }),
    });
    const { token } = (await created.json()) as { token: string };

    receiver.status = 503;
    const sent: Record<string, Task> = {};
    for (const { version, connect } of VERSIONS) {
      const client = await connect(`${first.url}/a2a/helper/`);
      upstream.enqueue({ kind: 'text', text: `Answer over ${version}.` });
      const request = userMessage(`task over ${version}`);
      request.configuration = {
        acceptedOutputModes: [],
        returnImmediately: false,
        taskPushNotificationConfig: {
          tenant: '',
          id: '',
          taskId: '',
          url: `${receiver.url}/after-restart-${version}`,
          token: '',
          authentication: { scheme: 'Bearer', credentials: `hook-${version}` },
        },
      };
      sent[version] = (await client.sendMessage(request, bearer(token))) as Task;
      expect(sent[version].status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    }
    // The gateway is trying (and being refused) for both configs when it dies.
    await vi.waitFor(
      () => {
        for (const { version } of VERSIONS)
          expect(receiver.received.some((push) => push.path === `/after-restart-${version}`)).toBe(true);
      },
      { timeout: 20_000 },
    );
    await first.kill('SIGKILL');
    first = undefined;
    expect(receiver.received.filter((push) => push.status === 200)).toEqual([]);
    receiver.status = 200;

    second = await startA2aGateway({ yaml, upstream, dataDir: data.dataDir });
    for (const { version } of VERSIONS) {
      const path = `/after-restart-${version}`;
      await vi.waitFor(
        () => expect(receiver.acceptedTasks(path, version).at(-1)?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED),
        { timeout: 20_000 },
      );
      const last = receiver.acceptedTasks(path, version).at(-1)!;
      expect(last.id).toBe(sent[version].id);
      expect(answerText(last)).toBe(`Answer over ${version}.`);
      const accepted = receiver.received.filter((push) => push.path === path && push.status === 200);
      expect(accepted.every((push) => push.headers.authorization === `Bearer hook-${version}`)).toBe(true);
    }
  }, 90_000);
});
