import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../admin/spawn-server.js';
import { TEST_API_KEY } from '../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());

// Every call answers 5 output tokens (the fake upstream's usage) at $2,000 per million: exactly $0.01, and
// the admission estimate (max_tokens 5, input free) is exactly that too.
const config = (upstream: string) => `
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 0, output_per_mtok: 2000 }
agents:
  - { name: sequential, model: upstream/test-model, max_tokens: 5, daily_budget_usd: 0.1 }
  - { name: concurrent, model: upstream/test-model, max_tokens: 5, daily_budget_usd: 0.1 }
  - { name: tokened, model: upstream/test-model, max_tokens: 5 }
  - { name: tokened-sequential, model: upstream/test-model, max_tokens: 5 }
  - { name: limited, model: upstream/test-model, max_tokens: 5, rate_limit: { requests_per_minute: 5 } }
`;

describe.skipIf(skip !== undefined)(
  `budgets and rate limits across two server processes on PostgreSQL and Redis${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let upstream: FakeUpstream;
    let replicas: ServerProcess[];

    beforeAll(async () => {
      db = await createPostgresDatabase();
      upstream = await startFakeUpstream();
      const file = join(db.dataDir, 'agent-gateway.yaml');
      writeFileSync(file, config(upstream.url));
      const env = { DATABASE_URL: db.databaseUrl, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'warn' };
      replicas = await Promise.all(
        ['a', 'b'].map((name) => spawnServer(['--config', file, '--data-dir', join(db.dataDir, name)], env)),
      );
    });
    afterAll(async () => {
      await Promise.all((replicas ?? []).map((replica) => replica.kill()));
      await upstream?.close();
      await db?.drop();
    });

    async function chat(index: number, model: string, credential = TEST_API_KEY): Promise<number> {
      const response = await fetch(`${replicas[index % 2].url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: `call ${index}` }] }),
      });
      await response.body?.cancel();
      return response.status;
    }

    it('an agent budget of $0.10 at $0.01 a call allows exactly 10 calls alternating between A and B', async () => {
      const statuses: number[] = [];
      for (let index = 0; index < 12; index += 1) statuses.push(await chat(index, 'sequential'));
      expect(statuses).toEqual([...Array<number>(10).fill(200), 402, 402]);
      // Either replica shows the shared account, used up.
      const budgets = await fetch(`${replicas[1].url}/api/v1/admin/budgets`, {
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
      });
      const sequential = ((await budgets.json()) as { subject: string }[]).find(
        (budget) => budget.subject === 'sequential',
      );
      expect(sequential).toMatchObject({
        kind: 'agent_daily',
        limit_usd: 0.1,
        spent_usd: 0.1,
        reserved_usd: 0,
        remaining_usd: 0,
        runs_holding: 0,
      });
    });

    it('and exactly 10 of 40 concurrent calls across A and B', async () => {
      upstream.setDefault({ kind: 'text', text: 'ok', delayMs: 100 });
      const before = upstream.chatRequests().length;
      const statuses = await Promise.all(Array.from({ length: 40 }, (_, index) => chat(index, 'concurrent')));
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.filter((status) => status === 402)).toHaveLength(30);
      // Refused calls never reach the upstream.
      expect(upstream.chatRequests().length - before).toBe(10);
    });

    async function createToken(
      agent: string,
      fields: Record<string, unknown>,
    ): Promise<{ token: string; token_id: string }> {
      const created = await fetch(`${replicas[0].url}/gateway/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agent_name: agent, scopes: ['chat'], expires_in_seconds: 600, ...fields }),
      });
      expect(created.status).toBe(201);
      return (await created.json()) as { token: string; token_id: string };
    }

    it('a token capped at $0.10 allows exactly 10 calls alternating between A and B', async () => {
      const { token } = await createToken('tokened-sequential', { max_cost_usd: 0.1 });
      const statuses: number[] = [];
      for (let index = 0; index < 12; index += 1) statuses.push(await chat(index, 'tokened-sequential', token));
      expect(statuses).toEqual([...Array<number>(10).fill(200), 402, 402]);
    });

    it('a token capped at $0.10 allows exactly 10 of 40 concurrent calls across A and B', async () => {
      const { token, token_id } = await createToken('tokened', { max_cost_usd: 0.1 });
      const statuses = await Promise.all(Array.from({ length: 40 }, (_, index) => chat(index, 'tokened', token)));
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.filter((status) => status === 402)).toHaveLength(30);
      const budgets = await fetch(`${replicas[0].url}/api/v1/admin/budgets`, {
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
      });
      expect(
        ((await budgets.json()) as { kind: string; subject: string }[]).filter(
          (budget) => budget.kind === 'token' && budget.subject === token_id,
        ),
      ).toEqual([expect.objectContaining({ limit_usd: 0.1, spent_usd: 0.1, remaining_usd: 0 })]);
      // The token itself reads the same on the other replica.
      const own = await fetch(`${replicas[1].url}/gateway/token`, { headers: { authorization: `Bearer ${token}` } });
      expect(await own.json()).toMatchObject({
        budget: { max_cost_usd: 0.1, spent_usd: 0.1, held_usd: 0, remaining_usd: 0 },
      });
    });

    it('an agent limit of 5 requests per minute allows exactly 5 of 20 concurrent calls across A and B', async () => {
      const before = upstream.chatRequests().length;
      const statuses = await Promise.all(Array.from({ length: 20 }, (_, index) => chat(index, 'limited')));
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(15);
      expect(upstream.chatRequests().length - before).toBe(5);
      // Either replica refuses the next one, and says when to come back.
      for (const replica of replicas) {
        const response = await fetch(`${replica.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'limited', messages: [{ role: 'user', content: 'again' }] }),
        });
        await response.body?.cancel();
        expect(response.status).toBe(429);
        expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });
  },
);
