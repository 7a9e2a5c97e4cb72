import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCompletion } from '../admin/admin-harness.js';
import { spawnServer, type ServerProcess } from '../admin/spawn-server.js';
import { TEST_API_KEY } from '../support/app.js';
import {
  createPostgresDatabase,
  POSTGRES_ADMIN_URL,
  postgresUnavailable,
  type TestDatabase,
} from '../support/databases.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import {
  listDeliveries,
  PRESSURE_SECRET,
  startCountingUpstream,
  type CountingUpstream,
} from '../gateway/triggers/pressure/pressure-harness.js';
import { hmacHex } from '../gateway/triggers/webhooks/signing.js';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());
/** State another process writes after a fault: generous, as a loaded CI machine is slow. */
const SLOW = { timeout: 60_000, interval: 250 };

const config = (upstreamUrl: string) => `
server: { log_level: warn, database_query_timeout_ms: 2000, database_connect_timeout_ms: 1000 }
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstreamUrl}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 1000, output_per_mtok: 2000 }
agents:
  - { name: worker, model: upstream/test-model, max_tokens: 50, daily_budget_usd: 1000 }
runs: { lease_seconds: 10 }
webhook_settings: { concurrency: 4, lease_seconds: 10, backoff_seconds: 0.05 }
webhooks:
  - name: pressure
    verification: hmac-sha256
    secret: ${PRESSURE_SECRET}
    rate_limit: false
    handlers: [{ event: "*", agent: worker, prompt: "handle {{id}}" }]
`;

/** What the clients of both processes saw during a fault. */
interface Outcomes {
  /** Payload id → delivery id, for every webhook answered 202. */
  acknowledged: Map<string, string>;
  /** Answers 503 database_unavailable with a Retry-After header (webhooks and chat completions). */
  unavailable: number;
  /** Chat completions answered in full (streamed ones with their end). */
  answered: number;
  /** Streams that ended with an error after some text (allowed: never a truncated success). */
  streamErrors: number;
  /** Anything else: a 500, a wrong or truncated answer, a refused connection (a dead process). */
  failures: string[];
}

function isUnavailable(status: number, body: string, retryAfter: string | null): boolean {
  return status === 503 && retryAfter !== null && body.includes('"database_unavailable"');
}

/** Sends webhooks and chat completions (plain and streamed) to both processes, in loops, until stopped. */
function startLoad(servers: ServerProcess[], tag: string) {
  const outcomes: Outcomes = { acknowledged: new Map(), unavailable: 0, answered: 0, streamErrors: 0, failures: [] };
  let stopped = false;
  let sent = 0;
  const next = () => `${tag}-${sent++}`;
  const target = () => servers[sent % servers.length].url;

  async function webhook(): Promise<void> {
    const id = next();
    const body = JSON.stringify({ type: 'job.created', id });
    const response = await fetch(`${target()}/webhooks/pressure`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-signature': hmacHex(body, PRESSURE_SECRET) },
    });
    const text = await response.text();
    if (response.status === 202)
      outcomes.acknowledged.set(id, (JSON.parse(text) as { delivery_id: string }).delivery_id);
    else if (isUnavailable(response.status, text, response.headers.get('retry-after'))) outcomes.unavailable += 1;
    else outcomes.failures.push(`webhook ${id}: ${response.status} ${text}`);
  }

  async function chat(): Promise<void> {
    const id = next();
    const response = await fetch(`${target()}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_API_KEY}` },
      body: JSON.stringify({ model: 'worker', messages: [{ role: 'user', content: `handle ${id}` }] }),
    });
    const text = await response.text();
    if (response.status === 200) {
      const content = (JSON.parse(text) as OpenAI.ChatCompletion).choices[0].message.content;
      if (content === `handled ${id}`) outcomes.answered += 1;
      else outcomes.failures.push(`chat ${id}: answered ${content}`);
    } else if (isUnavailable(response.status, text, response.headers.get('retry-after'))) outcomes.unavailable += 1;
    else outcomes.failures.push(`chat ${id}: ${response.status} ${text}`);
  }

  async function streamedChat(): Promise<void> {
    const id = next();
    const client = new OpenAI({ baseURL: `${target()}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
    let text = '';
    try {
      const stream = await client.chat.completions.create({
        model: 'worker',
        messages: [{ role: 'user', content: `handle ${id}` }],
        stream: true,
      });
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    } catch (error) {
      if (error instanceof OpenAI.APIError && error.status === 503 && error.code === 'database_unavailable') {
        outcomes.unavailable += 1;
      } else if (error instanceof OpenAI.APIError && text.length > 0) {
        outcomes.streamErrors += 1;
      } else outcomes.failures.push(`stream ${id}: ${String(error)}`);
      return;
    }
    // The stream ended as a success: it must hold the whole answer.
    if (text === `handled ${id}`) outcomes.answered += 1;
    else outcomes.failures.push(`stream ${id}: ended as a success with "${text}"`);
  }

  const loop = async (send: () => Promise<void>) => {
    // Bounded: a test that forgets to stop the load still ends.
    for (let i = 0; i < 2_000 && !stopped; i++) {
      const refused = outcomes.unavailable;
      await send().catch((error: unknown) => outcomes.failures.push(`request: ${String(error)}`));
      // A client backs off after a 503 (these ones briefly, unlike Retry-After's 5 s, to keep the test short).
      if (outcomes.unavailable > refused) await sleep(50);
    }
  };
  const loops = [webhook, webhook, webhook, chat, chat, streamedChat].map(loop);
  return {
    outcomes,
    async stop(): Promise<Outcomes> {
      stopped = true;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

/** Ends every connection of the server to `database` but the caller's own, as a failover or an operator does. */
async function terminateBackends(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const result = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${TEST_API_KEY}` } });
  return { status: response.status, body: (await response.json()) as T };
}

interface BudgetState {
  subject: string;
  spent_usd: number;
  reserved_usd: number;
  runs_holding: number;
}

interface ListedRun {
  run_id: string;
  status: string;
  total_tokens: number;
  cost_usd: number;
}

async function listRuns(baseUrl: string, status?: string): Promise<ListedRun[]> {
  const all: ListedRun[] = [];
  for (let offset = 0; ; offset += 500) {
    const query = `limit=500&offset=${offset}${status ? `&status=${status}` : ''}`;
    const page = await getJson<ListedRun[]>(`${baseUrl}/api/v1/admin/runs?${query}`);
    if (page.status !== 200) throw new Error(`runs answered ${page.status}: ${JSON.stringify(page.body)}`);
    all.push(...page.body);
    if (page.body.length < 500) return all;
  }
}

describe.skipIf(skip !== undefined)(
  `two server processes while PostgreSQL fails${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let database: TestDatabase;
    let databaseName: string;
    let proxy: TcpProxy;
    let upstream: CountingUpstream;
    let servers: ServerProcess[] = [];
    /** Streams whose prompt names a `gated-…` id get their first piece, then the rest once this opens. */
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));

    beforeAll(async () => {
      database = await createPostgresDatabase();
      const url = new URL(database.databaseUrl!);
      databaseName = url.pathname.slice(1);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.port = String(proxy.port);
      upstream = await startCountingUpstream(20, { gate: (id) => (id.startsWith('gated-') ? gate : undefined) });
      const file = join(database.dataDir, 'agent-gateway.yaml');
      writeFileSync(file, config(upstream.url));
      servers = await Promise.all(
        ['a', 'b'].map((name) =>
          spawnServer(['--config', file, '--data-dir', join(database.dataDir, name)], {
            DATABASE_URL: url.toString(),
            REDIS_URL: TEST_REDIS_URL,
            LOG_LEVEL: 'warn',
          }),
        ),
      );
    });
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.kill()));
      await upstream?.close();
      await proxy?.close();
      await database?.drop();
    });

    const logs = () => servers.map((server) => server.output().slice(-3_000)).join('\n---\n');

    /** Both processes alive and serving; every acknowledged delivery run once; no run left unfinished; usage = runs. */
    async function expectWholeAfter(outcomes: Outcomes): Promise<void> {
      expect(outcomes.failures, logs()).toEqual([]);
      for (const server of servers) {
        expect(server.child.exitCode, logs()).toBeNull();
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      }
      const deliveryIds = new Set(outcomes.acknowledged.values());
      await expect
        .poll(
          async () =>
            (await listDeliveries(servers[0].url, { status: 'done', kind: 'webhook' })).filter((d) =>
              deliveryIds.has(d.id),
            ).length,
          SLOW,
        )
        .toBe(deliveryIds.size);
      // Each acknowledged delivery's run called the model once: none lost, none run twice.
      const notOnce = [...outcomes.acknowledged.keys()].flatMap((id) =>
        upstream.calls.get(id) === 1 ? [] : [`${id}: ${upstream.calls.get(id) ?? 0} calls`],
      );
      const done = await listDeliveries(servers[0].url, { status: 'done', kind: 'webhook' });
      const details = notOnce.map((line) => {
        const deliveryId = outcomes.acknowledged.get(line.split(':')[0]);
        return JSON.stringify(done.find((delivery) => delivery.id === deliveryId));
      });
      expect(notOnce, `${details.join('\n')}\n${logs()}`).toEqual([]);
      // No run is left running or paused for good: each ends once its process has stored it.
      await expect.poll(async () => (await listRuns(servers[1].url, 'running')).length, SLOW).toBe(0);
      expect(await listRuns(servers[0].url, 'paused')).toEqual([]);
      // Usage records (analytics) and the budget ledger agree with the runs: nothing lost while the database was away.
      const runs = await listRuns(servers[0].url);
      const runTokens = runs.reduce((sum, run) => sum + run.total_tokens, 0);
      const runCost = runs.reduce((sum, run) => sum + run.cost_usd, 0);
      await expect
        .poll(
          async () => (await getJson<{ total_tokens: number }>(`${servers[1].url}/analytics/usage`)).body.total_tokens,
          SLOW,
        )
        .toBe(runTokens);
      const costs = await getJson<{ total_cost_usd: number }>(`${servers[1].url}/analytics/costs`);
      expect(costs.body.total_cost_usd).toBeCloseTo(runCost, 9);
      // Holds of runs that failed at admission are released by the lease tick of whichever replica looks first.
      const worker = async () =>
        (await getJson<BudgetState[]>(`${servers[0].url}/api/v1/admin/budgets`)).body.find(
          (budget) => budget.subject === 'worker',
        );
      await expect.poll(worker, SLOW).toMatchObject({ reserved_usd: 0, runs_holding: 0 });
      expect((await worker())!.spent_usd).toBeCloseTo(runCost, 9);
    }

    it('keeps both processes serving while PostgreSQL terminates their connections three times under load', async () => {
      const load = startLoad(servers, 'kill');
      for (let cycle = 0; cycle < 3; cycle++) {
        const before = load.outcomes.acknowledged.size;
        await expect.poll(() => load.outcomes.acknowledged.size, SLOW).toBeGreaterThan(before + 20);
        expect(await terminateBackends(databaseName)).toBeGreaterThan(0);
      }
      // Serving after the last one, too.
      const after = load.outcomes.acknowledged.size + load.outcomes.answered;
      await expect
        .poll(() => load.outcomes.acknowledged.size + load.outcomes.answered, SLOW)
        .toBeGreaterThan(after + 20);
      const outcomes = await load.stop();
      await expectWholeAfter(outcomes);
    }, 180_000);

    it('answers 503 with Retry-After while PostgreSQL is unreachable, loses nothing and strands no run', async () => {
      // Runs in flight when the database goes: each has sent its first piece and waits for the rest.
      const inFlight = await Promise.all(
        ['gated-0', 'gated-1', 'gated-2', 'gated-3'].map(async (id, index) => {
          const client = new OpenAI({ baseURL: `${servers[index % 2].url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
          const { data, response } = await client.chat.completions
            .create({ model: 'worker', messages: [{ role: 'user', content: `handle ${id}` }], stream: true })
            .withResponse();
          return {
            id,
            runId: response.headers.get('x-run-id')!,
            server: servers[index % 2],
            reader: readCompletion(data),
          };
        }),
      );
      await expect.poll(() => inFlight.every(({ reader }) => reader.pieces.length > 0), SLOW).toBe(true);
      const load = startLoad(servers, 'down');
      await expect.poll(() => load.outcomes.answered, SLOW).toBeGreaterThan(5);

      await proxy.refuse();
      for (const server of servers)
        await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, SLOW).toBe(503);
      // The model answers the runs in flight while their steps cannot be stored; new work is refused meanwhile.
      openGate();
      await expect.poll(() => inFlight.every(({ id, reader }) => reader.text() === `handled ${id}`), SLOW).toBe(true);
      await expect.poll(() => load.outcomes.unavailable, SLOW).toBeGreaterThan(10);
      await proxy.restore();

      // Each run in flight ends as a success once its steps and end are stored; none is re-run behind its back.
      await Promise.all(inFlight.map(({ reader }) => reader.done));
      for (const { id, reader, runId, server } of inFlight) {
        const detail = JSON.stringify((await getJson(`${server.url}/api/v1/admin/runs/${runId}`)).body).slice(0, 3000);
        expect(reader.failure(), `${id}: ${detail}`).toBeUndefined();
        expect(upstream.calls.get(id), id).toBe(1);
      }
      const answered = load.outcomes.answered;
      await expect.poll(() => load.outcomes.answered, SLOW).toBeGreaterThan(answered + 10);
      const outcomes = await load.stop();
      await expectWholeAfter(outcomes);
    }, 180_000);

    it('drops half-open connections after the query timeout and serves again once PostgreSQL answers', async () => {
      const load = startLoad(servers, 'silent');
      await expect.poll(() => load.outcomes.answered, SLOW).toBeGreaterThan(5);
      // The connections open now go silent (a partition); they never speak again.
      proxy.silence();
      await expect.poll(() => load.outcomes.unavailable, SLOW).toBeGreaterThan(5);
      await proxy.restore();
      const answered = load.outcomes.answered;
      await expect.poll(() => load.outcomes.answered, SLOW).toBeGreaterThan(answered + 10);
      const outcomes = await load.stop();
      await expectWholeAfter(outcomes);
    }, 180_000);
  },
);
