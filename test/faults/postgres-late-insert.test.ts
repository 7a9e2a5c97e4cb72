import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const skip = await postgresUnavailable();

const yaml = (upstreamUrl: string) => `
server: { database_write_retry_seconds: 0.5, database_connect_timeout_ms: 1000, database_query_timeout_ms: 1000 }
auth: { api_keys: ["\${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstreamUrl}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 1000, output_per_mtok: 2000 }
agents:
  - { name: helper, model: upstream/test-model }
`;

describe.skipIf(skip !== undefined)(
  `a run that starts as PostgreSQL goes away${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let upstream: FakeUpstream;
    let app: TestApp;

    beforeAll(async () => {
      database = await createPostgresDatabase();
      const url = new URL(database.databaseUrl!);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.port = String(proxy.port);
      upstream = await startFakeUpstream();
      app = await startTestApp(yaml(upstream.url), { databaseUrl: url.toString(), dataDir: database.dataDir });
    });
    afterAll(async () => {
      await proxy?.restore();
      await app?.stop({ keepData: true });
      await upstream?.close();
      await proxy?.close();
      await database?.drop();
    });

    it('answers its client 503 once the write retry is over, and records it, failed, with its usage once the database is back', async () => {
      const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
      // The model answers; the run's insert, queued as the call goes out, meets a database gone silent (a
      // partition): nothing has failed yet, so the run is let in, and its insert fails after the query timeout.
      let release!: () => void;
      const answered = new Promise<void>((resolve) => (release = resolve));
      upstream.enqueue({ kind: 'handler', fn: () => (release(), { kind: 'text', text: 'an answer nobody stored' }) });
      proxy.silence();
      const refused = client.chat.completions
        .create({ model: 'helper', messages: [{ role: 'user', content: 'hello' }] })
        .withResponse()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      await answered;
      const error = await refused;
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error).toMatchObject({ status: 503, code: 'database_unavailable' });
      const runId = (error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-run-id');

      await proxy.restore();
      const admin = async (path: string) =>
        (await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })).json() as Promise<
          Record<string, unknown>
        >;
      // The model was called and billed: the run and its usage are stored all the same, and agree.
      // Its insert, then its end, are written once the database answers again.
      const stored = async () =>
        ((await admin('/api/v1/admin/runs?limit=10')) as unknown as Record<string, unknown>[])[0];
      await expect.poll(async () => (await stored())?.status, { timeout: 15_000 }).toBe('failed');
      const run = await stored();
      if (runId) expect(run.run_id).toBe(runId);
      expect(run).toMatchObject({ status: 'failed', total_tokens: 15 });
      await expect.poll(async () => (await admin('/analytics/usage')).total_tokens, { timeout: 15_000 }).toBe(15);
      const detail = await admin(`/api/v1/admin/runs/${String(run.run_id)}`);
      expect(detail.error).toMatchObject({ code: 'database_unavailable' });
    });
  },
);
