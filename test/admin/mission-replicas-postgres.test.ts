import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LEARN } from '../autopilot/learning/learning-loop-helpers.js';
import { TEST_API_KEY } from '../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const skip = await postgresUnavailable();

// PostgreSQL and no Redis, a documented deployment: replicas know of each other through the database only.
// The scheduler fires only when asked (an approval, or a sweep that took an execution over), so the replica a
// mission is approved on is the one that executes it.
const config = (upstream: string) => `
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0, timeout_ms: 60000 }
agents:
  - { name: helper, model: upstream/test-model }
runs: { lease_seconds: 2, resume: false }
autopilot: { model: upstream/test-model, scheduler_poll_ms: 0 }
`;

interface Mission {
  status: string;
  runs: { attempt: number; status: string }[];
}

describe.skipIf(skip !== undefined)(
  `mission executions on two server processes sharing PostgreSQL without Redis${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let upstream: FakeUpstream;
    let file: string;
    let a: ServerProcess;
    let b: ServerProcess;
    const env = () => ({ DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'warn' });
    const start = (name: string) => spawnServer(['--config', file, '--data-dir', join(db.dataDir, name)], env());

    async function api(server: ServerProcess, method: string, path: string, body?: unknown) {
      const response = await fetch(`${server.url}/api/v1/autopilot${path}`, {
        method,
        headers: {
          authorization: `Bearer ${TEST_API_KEY}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    }

    /** Creates a one-off mission and approves it on `server`, which executes it. */
    async function approveOn(server: ServerProcess, topic: string): Promise<string> {
      const created = await api(server, 'POST', '/missions', {
        blueprint_json: JSON.stringify(LEARN),
        slots: { topic },
      });
      expect(created.status).toBe(200);
      const id = created.body.mission_id as string;
      expect((await api(server, 'POST', `/missions/${id}/approve`)).status).toBe(200);
      return id;
    }

    const mission = async (server: ServerProcess, id: string) =>
      (await api(server, 'GET', `/missions/${id}`)).body as Mission;
    const attempts = (detail: Mission) => detail.runs.map((run) => [run.attempt, run.status]);
    const requestsAbout = (topic: string) =>
      upstream.chatRequests().filter((request) => JSON.stringify(request.body.messages).includes(topic));

    beforeAll(async () => {
      db = await createPostgresDatabase();
      upstream = await startFakeUpstream();
      file = join(db.dataDir, 'agent-gateway.yaml');
      writeFileSync(file, config(upstream.url));
      [a, b] = await Promise.all([start('a'), start('b')]);
      for (const server of [a, b]) expect((await api(server, 'POST', '/enable', { tier: 'skip' })).status).toBe(200);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.kill(), b?.kill()]);
      await upstream?.close();
      await db?.drop();
    });

    it('a replica that restarts leaves the execution another replica is running alone', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // B's model call streams its answer but holds its end until A has restarted.
      upstream.setDefault({ kind: 'text', text: 'otters swim', holdEnd: held });
      const id = await approveOn(b, 'otters');
      await vi.waitFor(() => expect(requestsAbout('otters')).toHaveLength(1), { timeout: 10_000 });

      await a.kill();
      // Listening means started: its recovery of executions has run.
      a = await start('a');
      expect((await mission(b, id)).runs).toMatchObject([{ attempt: 1, status: 'running' }]);
      release();

      await vi.waitFor(async () => expect((await mission(b, id)).status).toBe('completed'), { timeout: 15_000 });
      expect(attempts(await mission(a, id))).toEqual([[1, 'completed']]);
      expect(requestsAbout('otters')).toHaveLength(1);
    }, 60_000);

    it('a replica killed mid-execution has its execution taken over once its lease lapsed', async () => {
      upstream.setDefault({ kind: 'hang' });
      const id = await approveOn(b, 'beavers');
      await vi.waitFor(() => expect(requestsAbout('beavers')).toHaveLength(1), { timeout: 10_000 });
      // From now on the model answers: the execution that takes over completes.
      upstream.setDefault({ kind: 'text', text: 'beavers build' });

      await b.kill('SIGKILL');
      await vi.waitFor(async () => expect((await mission(a, id)).status).toBe('completed'), { timeout: 20_000 });
      expect(attempts(await mission(a, id))).toEqual([
        [2, 'completed'],
        [1, 'interrupted'],
      ]);
      expect(requestsAbout('beavers')).toHaveLength(2);
    }, 60_000);
  },
);
