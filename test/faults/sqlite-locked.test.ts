import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';

// The write retry is the default (60 s): a locked database must not make a new run's client wait for it.
const yaml = (upstreamUrl: string) => `
auth: { api_keys: ["\${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstreamUrl}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 1000, output_per_mtok: 2000 }
agents:
  - { name: helper, model: upstream/test-model }
`;

describe('SQLite locked by another process (issue #41)', () => {
  let upstream: FakeUpstream;
  let app: TestApp;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    app = await startTestApp(yaml(upstream.url));
  });
  afterAll(async () => {
    await app?.stop();
    await upstream?.close();
  });

  const admin = async (path: string) =>
    (await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })).json() as Promise<
      Record<string, unknown>
    >;

  it('answers a new run 503 database_unavailable with Retry-After, health answers meanwhile, and once the lock is gone requests succeed and nothing queued is lost', async () => {
    const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
    // A run under way when the lock is taken: its first piece is out (so its insert committed), the rest waits.
    let goOn!: () => void;
    const open = new Promise<void>((resolve) => (goOn = resolve));
    upstream.enqueue({ kind: 'text', text: 'one two three four', chunks: 4, gates: [{ at: 1, open }] });
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'under way' }], stream: true })
      .withResponse();
    const underWayId = response.headers.get('x-run-id');
    const pieces = stream[Symbol.asyncIterator]();
    await pieces.next();

    const locker = new SqliteDatabase(join(app.dataDir, 'agent-gateway.sqlite'));
    locker.exec('begin immediate');
    try {
      upstream.enqueue({ kind: 'text', text: 'an answer nobody could store yet' });
      const refused = await fetch(`${app.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'hello' }] }),
      });
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('database_unavailable');
      const refusedRunId = refused.headers.get('x-run-id');

      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      // Known locked now: the next run is refused before its model call.
      const calls = upstream.requests.length;
      const again = await fetch(`${app.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'again' }] }),
      });
      expect(again.status).toBe(503);
      expect(upstream.requests.length).toBe(calls);

      // The run under way ends while the database is locked: its end and usage wait in the group commit, and
      // its client gets the end once they are stored.
      goOn();
      let text = '';
      while (!text.endsWith('four')) text += (await pieces.next()).value?.choices[0]?.delta?.content ?? '';

      locker.exec('rollback');
      while (!(await pieces.next()).done);
      await expect
        .poll(async () => {
          upstream.enqueue({ kind: 'text', text: 'back' });
          return (
            await fetch(`${app.url}/v1/chat/completions`, {
              method: 'POST',
              headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
              body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'back?' }] }),
            })
          ).status;
        })
        .toBe(200);

      const runs = async () => (await admin('/api/v1/admin/runs?limit=50')) as unknown as Record<string, unknown>[];
      await expect
        .poll(async () => (await runs()).filter((run) => run.status === 'completed').length)
        .toBeGreaterThanOrEqual(2);
      const all = await runs();
      // The refused run (its model call cancelled with the 503) is recorded, failed, once the lock is gone.
      const failed = all.filter((run) => run.status === 'failed');
      expect(failed).toHaveLength(1);
      if (refusedRunId) expect(failed[0].run_id).toBe(refusedRunId);
      const detail = await admin(`/api/v1/admin/runs/${String(failed[0].run_id)}`);
      expect(detail.error).toMatchObject({ code: 'database_unavailable' });
      // The run under way when the lock was taken ended completed, with its whole answer.
      expect(await admin(`/api/v1/admin/runs/${underWayId}`)).toMatchObject({ status: 'completed' });
    } finally {
      if (locker.inTransaction) locker.exec('rollback');
      locker.close();
    }
  });
});
