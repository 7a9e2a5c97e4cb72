import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';
import { callAdmin, readCompletion, readSse } from './admin-harness.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());
const ANSWER = 'Replicas share one store and one bus, so any of them can answer for any run they did not start.';

const config = (first: string, second: string) => `
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${first}", max_retries: 0 }
  second: { type: openai-compatible, base_url: "${second}", max_retries: 0 }
agents:
  - { name: helper, model: upstream/test-model }
  - { name: slowpoke, model: second/test-model }
`;

describe.skipIf(skip !== undefined)(
  `two server processes on PostgreSQL and Redis${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let upstreams: FakeUpstream[];
    let a: ServerProcess;
    let b: ServerProcess;

    beforeAll(async () => {
      db = await createPostgresDatabase();
      upstreams = [await startFakeUpstream(), await startFakeUpstream()];
      const file = join(db.dataDir, 'agent-gateway.yaml');
      writeFileSync(file, config(upstreams[0].url, upstreams[1].url));
      const env = { DATABASE_URL: db.databaseUrl, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'warn' };
      // Started together, as replicas are: the migrator's lock lets one migrate while the other waits.
      [a, b] = await Promise.all(
        ['a', 'b'].map((name) => spawnServer(['--config', file, '--data-dir', join(db.dataDir, name)], env)),
      );
    });
    afterAll(async () => {
      await Promise.all([a?.kill(), b?.kill()]);
      await Promise.all((upstreams ?? []).map((upstream) => upstream.close()));
      await db?.drop();
    });

    async function streamOnA(model: string, upstream: FakeUpstream) {
      upstream.enqueue({ kind: 'text', text: ANSWER, chunks: 24, chunkDelayMs: 30 });
      const client = new OpenAI({ baseURL: `${a.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
      const { data, response } = await client.chat.completions
        .create({ model, messages: [{ role: 'user', content: 'go' }], stream: true })
        .withResponse();
      const reader = readCompletion(data);
      await vi.waitFor(() => expect(reader.pieces.length).toBeGreaterThan(0));
      return { runId: response.headers.get('x-run-id')!, reader };
    }

    it('B attaches to, pauses and resumes a run that A executes', async () => {
      const { runId, reader } = await streamOnA('helper', upstreams[0]);
      expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
        status: 'running',
        agent_name: 'helper',
      });
      expect((await callAdmin(b.url, 'GET', '/status')).body).toMatchObject({ status: 'healthy', active_runs: 1 });
      const attached = readSse(
        await fetch(`${b.url}/agui/ws?run_id=${runId}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } }),
      );

      expect(await callAdmin(b.url, 'POST', `/runs/${runId}/pause`)).toEqual({
        status: 200,
        body: { run_id: runId, status: 'paused' },
      });
      await vi.waitFor(
        async () =>
          expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
            status: 'paused',
            step_details: [expect.anything()],
          }),
        { timeout: 5000 },
      );
      // A receives the rest of the answer while paused: once its model step is stored as ended, every delta
      // A would have wrongly published went to the bus before that write, and both readers must still hold back.
      await vi.waitFor(
        async () =>
          expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
            status: 'paused',
            step_details: [{ status: 'completed', prompt_log: { response: ANSWER } }],
          }),
        { timeout: 5000 },
      );
      await vi.waitFor(() => expect(attached.text()).toBe(reader.text()));
      const heldAt = reader.text();
      expect(ANSWER.startsWith(heldAt) && heldAt.length < ANSWER.length).toBe(true);
      expect(attached.text()).toBe(heldAt);

      expect(await callAdmin(b.url, 'POST', `/runs/${runId}/resume`)).toEqual({
        status: 200,
        body: { run_id: runId, status: 'running' },
      });
      await Promise.all([reader.done, attached.done]);
      expect(reader.text()).toBe(ANSWER);
      expect(attached.text()).toBe(ANSWER);
      expect(attached.events.at(-1)?.event).toMatch(/RUN_FINISHED|run_completed/);
      await vi.waitFor(async () =>
        expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body.status).toBe('completed'),
      );
    });

    it('B cancels a run that A executes: A ends its stream with an error and closes the upstream request', async () => {
      const { runId, reader } = await streamOnA('slowpoke', upstreams[1]);
      expect(upstreams[1].openConnections()).toBe(1);
      expect(await callAdmin(b.url, 'POST', `/runs/${runId}/cancel`)).toEqual({
        status: 200,
        body: { run_id: runId, status: 'cancelled' },
      });
      await reader.done;
      expect(reader.failure()).toMatchObject({ code: 'cancelled' });
      await vi.waitFor(() => expect(upstreams[1].openConnections()).toBe(0));
      await vi.waitFor(async () =>
        expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
          status: 'cancelled',
          error: { code: 'cancelled' },
        }),
      );
      const refused = await callAdmin(a.url, 'POST', `/runs/${runId}/pause`);
      expect(refused).toMatchObject({ status: 409, body: { error: { status: 'cancelled' } } });
    });
  },
);
