import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../src/bus/index.js';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { tempDataDir } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { adminYaml, callAdmin } from './admin-harness.js';
import { spawnServer } from './spawn-server.js';

async function collect(source: AsyncIterable<RunEvent> | undefined): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of source ?? []) events.push(event);
  return events;
}

// This file covers runs.resume: false; restart-resume.test.ts the default.
const NO_RESUME = 'runs: { resume: false }\n';

describe('a server that dies mid-run', () => {
  let upstream: FakeUpstream;
  let data: ReturnType<typeof tempDataDir>;
  let restarted: TestApp | undefined;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    data = tempDataDir();
  });
  afterAll(async () => {
    await restarted?.stop({ keepData: true });
    await upstream.close();
    data.remove();
  });

  it('comes back with its unfinished runs marked interrupted and its finished runs intact', async () => {
    const configFile = join(data.dataDir, 'agent-gateway.yaml');
    writeFileSync(
      configFile,
      adminYaml(NO_RESUME).replace('${TEST_API_KEY}', TEST_API_KEY).replace('${UPSTREAM_URL}', upstream.url),
    );
    const server = await spawnServer(['--config', configFile, '--data-dir', data.dataDir], {});
    const chat = (content: string) =>
      fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content }] }),
      });
    const finished = (await chat('first')).headers.get('x-run-id')!;
    upstream.enqueue({ kind: 'hang' });
    const hanging = chat('second').catch(() => undefined);
    await vi.waitFor(() => expect(upstream.chatRequests()).toHaveLength(2), { timeout: 10_000 });
    const [unfinished] = (await callAdmin(server.url, 'GET', '/runs?status=running')).body.map(
      (run: { run_id: string }) => run.run_id,
    );
    await server.kill('SIGKILL');
    await hanging;

    restarted = await startTestApp(adminYaml(NO_RESUME), {
      env: { UPSTREAM_URL: upstream.url },
      dataDir: data.dataDir,
    });
    const { body: runs } = await callAdmin(restarted.url, 'GET', '/runs');
    expect(runs).toEqual([
      expect.objectContaining({ run_id: unfinished, status: 'interrupted', finished_at: expect.any(String) }),
      expect.objectContaining({ run_id: finished, status: 'completed', steps: 1, total_tokens: 15 }),
    ]);
    const { body: detail } = await callAdmin(restarted.url, 'GET', `/runs/${unfinished}`);
    expect(detail).toMatchObject({ status: 'interrupted', error: { code: 'interrupted' } });
    expect((await callAdmin(restarted.url, 'GET', `/runs/${finished}`)).body).toMatchObject({
      output: 'echo: first',
      step_details: [expect.objectContaining({ kind: 'model', status: 'completed' })],
    });

    const replay = await collect(await restarted.runs.attach(finished));
    expect([replay[0].type, replay[1].type, replay.at(-1)?.type]).toEqual(['run-start', 'step-start', 'run-end']);
    expect(replay.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('')).toBe('echo: first');
    expect((await collect(await restarted.runs.attach(unfinished))).at(-1)).toMatchObject({
      type: 'run-error',
      code: 'interrupted',
    });
  });
});
