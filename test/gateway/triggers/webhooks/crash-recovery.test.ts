import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { tempDataDir } from '../../../support/databases.js';
import { CRASH_YAML } from './crash-config.js';
import { hmacHex } from './signing.js';
import { startWebhookHarness } from './webhook-harness.js';

const { dataDir, remove } = tempDataDir();
afterAll(() => remove());

it('runs deliveries accepted just before kill -9 after the restart, including the one in progress', async () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/gateway/triggers/webhooks/webhook-server.fixture.ts', dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (prefix: string) => {
    for (let line = await lines.next(); !line.done; line = await lines.next())
      if (line.value.startsWith(prefix)) return line.value.slice(prefix.length);
    throw new Error(`the server process ended before printing "${prefix}"`);
  };
  const url = await nextLine('listening ');
  const post = async (id: string) => {
    const body = JSON.stringify({ type: 'order.created', id });
    const response = await fetch(`${url}/webhooks/orders`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-signature': hmacHex(body, 'crash-secret') },
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { delivery_id: string }).delivery_id;
  };
  const inProgress = await post('o-1');
  expect(await nextLine('run-started ')).toBe(inProgress);
  const waiting = await post('o-2');
  child.kill('SIGKILL');
  await once(child, 'exit');

  const restarted = await startWebhookHarness(CRASH_YAML, { database: { dataDir, drop: async () => undefined } });
  try {
    const worker = restarted.createWorker({ reclaimAllOnStart: true });
    await worker.start();
    await worker.processDue();
    await worker.stop();
    expect(restarted.runs.calls.map((call) => [call.metadata.item_id, call.prompt]).sort()).toEqual(
      [
        [inProgress, 'order o-1'],
        [waiting, 'order o-2'],
      ].sort(),
    );
    expect((await restarted.store.list()).map((delivery) => delivery.status)).toEqual(['done', 'done']);
  } finally {
    await restarted.close();
  }
}, 30_000);
