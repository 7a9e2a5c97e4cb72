import { TaskState, type Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { describeEachDialect, type TestDatabase } from '../../support/databases.js';
import { a2aYaml, answerText, bearer, discover, rpc, startA2aGateway, userMessage } from './a2a-harness.js';

// A short drain, so stopping the gateway hands a hung run on quickly.
const yaml = `${a2aYaml()}\nserver:\n  shutdown_timeout_ms: 200\n`;

await describeEachDialect('A2A task state across a restart', (dialect) => {
  let upstream: FakeUpstream;
  let database: TestDatabase;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    database = await dialect.create();
  });
  afterAll(async () => {
    await upstream.close();
    await database.drop();
  });
  const start = () => startA2aGateway({ yaml, upstream, dataDir: database.dataDir, databaseUrl: database.databaseUrl });

  it('keeps finished tasks, and a task whose run the shutdown handed on completes after the restart', async () => {
    const first = await start();
    const token = await first.createToken('helper');
    upstream.enqueue({ kind: 'text', text: 'Stored answer.' });
    const client = await discover(first.agentUrl('helper'));
    const finished = (await client.sendMessage(userMessage('remember'), bearer(token.token))) as Task;

    // Returns at once with the working task; the run then hangs until the shutdown hands it on.
    upstream.enqueue({ kind: 'hang' });
    const pending = await rpc(
      `${first.app.url}/a2a/helper`,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: { messageId: 'm-hang', role: 'ROLE_USER', parts: [{ text: 'hang' }] },
          configuration: { returnImmediately: true },
        },
      },
      { authorization: `Bearer ${token.token}`, 'a2a-version': '1.0' },
    );
    const working = ((await pending.json()) as { result: { task: { id: string; status: { state: string } } } }).result
      .task;
    expect(working.status.state).toBe('TASK_STATE_WORKING');
    await first.stop({ keepData: true });

    upstream.setDefault({ kind: 'text', text: 'Answered after the restart.' });
    const second = await start();
    try {
      const again = await discover(second.agentUrl('helper'));
      const read = await again.getTask({ tenant: '', id: finished.id, historyLength: undefined }, bearer(token.token));
      expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(answerText(read)).toBe('Stored answer.');

      // The restarted gateway took the run over from its start (the cut call was never recorded) and ends it.
      const settled = await vi.waitFor(async () => {
        const task = await again.getTask({ tenant: '', id: working.id, historyLength: undefined }, bearer(token.token));
        expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        return task;
      });
      expect(answerText(settled)).toBe('Answered after the restart.');
      const run = await second.app.runs.find(settled.metadata!.run_id as string);
      expect(run?.run).toMatchObject({ status: 'completed', attempts: 2 });
    } finally {
      await second.stop({ keepData: true });
    }
  });
});
