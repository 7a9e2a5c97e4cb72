import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';
import { callAdmin, readSse } from './admin-harness.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());

const config = (upstream: string) => `
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0 }
agents:
  - { name: helper, model: upstream/test-model }
runs: { lease_seconds: 2, resume: false }
`;

describe.skipIf(skip !== undefined)(`a replica killed with runs in flight${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let db: TestDatabase;
  let upstream: FakeUpstream;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    db = await createPostgresDatabase();
    upstream = await startFakeUpstream();
    // Long answers: the runs are still streaming when A dies.
    upstream.setDefault({ kind: 'text', text: 'word '.repeat(200), chunks: 200, chunkDelayMs: 100 });
    const file = join(db.dataDir, 'agent-gateway.yaml');
    writeFileSync(file, config(upstream.url));
    const env = { DATABASE_URL: db.databaseUrl, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'warn' };
    [a, b] = await Promise.all(
      ['a', 'b'].map((name) => spawnServer(['--config', file, '--data-dir', join(db.dataDir, name)], env)),
    );
  });
  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await upstream?.close();
    await db?.drop();
  });

  it('ends the stream of every client attached through B once the lease of A lapses', async () => {
    const started = await Promise.all(
      Array.from({ length: 5 }, async (_, index) => {
        const response = await fetch(`${a.url}/agui/runs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ agent_name: 'helper', message: `long answer ${index}` }),
        });
        const direct = readSse(response);
        // A's own clients lose their connection with A: that is the kill, not a failure.
        direct.done.catch(() => undefined);
        await vi.waitFor(() => expect(direct.text().length).toBeGreaterThan(0), { timeout: 10_000 });
        return response.headers.get('x-run-id')!;
      }),
    );
    const attached = await Promise.all(
      started.map(async (runId) =>
        readSse(
          await fetch(`${b.url}/agui/ws?run_id=${runId}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } }),
        ),
      ),
    );
    await vi.waitFor(() => expect(attached.every((client) => client.text().length > 0)).toBe(true), {
      timeout: 10_000,
    });

    await a.kill('SIGKILL');
    // Each attached client gets the terminal event and its stream ends; none hangs on keep-alives.
    await Promise.all(attached.map((client) => client.done));
    for (const client of attached)
      expect(client.events.at(-1)).toMatchObject({ event: 'RUN_ERROR', data: { code: 'interrupted' } });
    for (const runId of started)
      expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({ status: 'interrupted' });
  }, 60_000);
});
