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
/** Waits on state another process writes (over PostgreSQL and Redis): generous, as a loaded CI machine is slow. */
const SLOW = { timeout: 15_000 };

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

    /**
     * Streams a run on A whose upstream sends the answer's first piece, then holds the other 23 until the test
     * calls `goOn()`: what the test does meanwhile lands mid-answer however slow the machine is.
     */
    async function streamOnA(model: string, upstream: FakeUpstream) {
      let goOn!: () => void;
      const open = new Promise<void>((resolve) => (goOn = resolve));
      upstream.enqueue({ kind: 'text', text: ANSWER, chunks: 24, gates: [{ at: 1, open }] });
      const client = new OpenAI({ baseURL: `${a.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
      const { data, response } = await client.chat.completions
        .create({ model, messages: [{ role: 'user', content: 'go' }], stream: true })
        .withResponse();
      const reader = readCompletion(data);
      await vi.waitFor(() => expect(reader.pieces.length).toBeGreaterThan(0), SLOW);
      return { runId: response.headers.get('x-run-id')!, reader, goOn };
    }

    it('B attaches to, pauses and resumes a run that A executes', async () => {
      const { runId, reader, goOn } = await streamOnA('helper', upstreams[0]);
      expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
        status: 'running',
        agent_name: 'helper',
      });
      // Healthy needs B's Redis ping answered within 1 s, which a loaded machine may miss once: polled.
      await vi.waitFor(
        async () =>
          expect((await callAdmin(b.url, 'GET', '/status')).body).toMatchObject({ status: 'healthy', active_runs: 1 }),
        SLOW,
      );
      const attached = readSse(
        await fetch(`${b.url}/agui/ws?run_id=${runId}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } }),
      );

      expect(await callAdmin(b.url, 'POST', `/runs/${runId}/pause`)).toEqual({
        status: 200,
        body: { run_id: runId, status: 'paused' },
      });
      // The run reads `paused` once A applied the pause (A writes it after holding the run's events back).
      await vi.waitFor(
        async () => expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body.status).toBe('paused'),
        SLOW,
      );
      // Only now does the upstream send the rest of the answer: A receives all of it while paused. Once its model
      // step is stored as ended, every delta A would have wrongly published went to the bus before that write,
      // and both readers must still hold back.
      goOn();
      await vi.waitFor(
        async () =>
          expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
            status: 'paused',
            step_details: [{ status: 'completed', prompt_log: { response: ANSWER } }],
          }),
        SLOW,
      );
      await vi.waitFor(() => expect(attached.text()).toBe(reader.text()), SLOW);
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
      await vi.waitFor(
        async () => expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body.status).toBe('completed'),
        SLOW,
      );
    });

    it('B cancels a run that A executes: A ends its stream with an error and closes the upstream request', async () => {
      // The upstream holds the answer after its first piece (goOn is never called): the cancel lands mid-answer.
      const { runId, reader } = await streamOnA('slowpoke', upstreams[1]);
      expect(upstreams[1].openConnections()).toBe(1);
      expect(await callAdmin(b.url, 'POST', `/runs/${runId}/cancel`)).toEqual({
        status: 200,
        body: { run_id: runId, status: 'cancelled' },
      });
      await reader.done;
      expect(reader.failure()).toMatchObject({ code: 'cancelled' });
      await vi.waitFor(() => expect(upstreams[1].openConnections()).toBe(0), SLOW);
      await vi.waitFor(
        async () =>
          expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
            status: 'cancelled',
            error: { code: 'cancelled' },
          }),
        SLOW,
      );
      const refused = await callAdmin(a.url, 'POST', `/runs/${runId}/pause`);
      expect(refused).toMatchObject({ status: 409, body: { error: { status: 'cancelled' } } });
    });
  },
);
