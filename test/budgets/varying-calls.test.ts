import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../admin/spawn-server.js';
import { TEST_API_KEY } from '../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import {
  startFakeUpstream,
  type FakeResponse,
  type FakeUpstream,
  type RecordedRequest,
} from '../support/fake-upstream.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());

// A call answers `size` output tokens (1 to max_tokens 20) at $1,000 per million: $0.001 to $0.02, plus its
// prompt, which the upstream counts as 4 tokens at $100 per million.
const PROMPT_TOKENS = 4;
const MAX_TOKENS = 20;
const callNanos = (size: number) => PROMPT_TOKENS * 100 + size * 1000_000;
/** The most one call can cost: the documented bound is the limit plus this. */
const ONE_CALL_NANOS = callNanos(MAX_TOKENS);
const LIMIT_NANOS = 100_000_000;

const config = (upstream: string) => `
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 100, output_per_mtok: 1000 }
agents:
  - { name: daily, model: upstream/test-model, max_tokens: ${MAX_TOKENS}, daily_budget_usd: 0.1 }
  - { name: tokened, model: upstream/test-model, max_tokens: ${MAX_TOKENS} }
  - name: looping
    model: upstream/test-model
    tools: [get_current_time]
    max_tokens: ${MAX_TOKENS}
    daily_budget_usd: 0.1
`;

/**
 * The answer to a call: `size` tokens of text, the size the run's user message ends with (`size <n>`). A run of
 * `looping` first gets a tool call (2 tokens), then its text: two model calls.
 */
function answer(request: RecordedRequest): FakeResponse {
  const messages = request.body.messages as { role: string; content: string }[];
  const asked = askedOf(request);
  if (asked.startsWith('looping ') && messages.at(-1)!.role !== 'tool')
    return {
      kind: 'tool_calls',
      calls: [{ name: 'get_current_time', arguments: {} }],
      usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: 2 },
    };
  const size = Number(/size (\d+)$/.exec(asked)![1]);
  return {
    kind: 'text',
    text: 'word '.repeat(size).trim(),
    usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: size },
    // Long enough for the calls of a wave to be in flight together.
    delayMs: 100,
  };
}

const askedOf = (request: RecordedRequest): string =>
  String((request.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content);

interface RunItem {
  status: string;
  cost_usd: number;
}

const nanos = (usd: number) => Math.round(usd * 1e9);

describe.skipIf(skip !== undefined)(
  `budgets with calls of varying size, 40 at once across two server processes${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let upstream: FakeUpstream;
    let replicas: ServerProcess[];
    let calls = 0;

    beforeAll(async () => {
      db = await createPostgresDatabase();
      upstream = await startFakeUpstream();
      upstream.setDefault(answer);
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

    const admin = async <T>(path: string, replica = 0, credential = TEST_API_KEY): Promise<T> => {
      const response = await fetch(`${replicas[replica].url}${path}`, {
        headers: { authorization: `Bearer ${credential}` },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as T;
    };

    /** One chat completion of `size` output tokens, on replica A or B by turns; its HTTP status. */
    async function chat(agent: string, size: number, credential = TEST_API_KEY): Promise<number> {
      const index = (calls += 1);
      const response = await fetch(`${replicas[index % 2].url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: agent, messages: [{ role: 'user', content: `${agent} ${index} size ${size}` }] }),
      });
      await response.body?.cancel();
      return response.status;
    }

    /**
     * A few small calls one after the other (what the agent's day began with), then waves of 40 concurrent calls
     * of 1 to 20 tokens until a whole wave is refused; returns how many calls were answered.
     */
    async function spendDown(agent: string, credential?: string): Promise<number> {
      let answered = 0;
      for (let call = 0; call < 4; call += 1) {
        expect(await chat(agent, 1, credential)).toBe(200);
        answered += 1;
      }
      // Every wave that is answered at all spends $0.0014 at least: 72 waves use any budget of $0.10 up.
      for (let wave = 0; wave < 100; wave += 1) {
        const statuses = await Promise.all(
          Array.from({ length: 40 }, (_, index) => chat(agent, ((index * 7) % MAX_TOKENS) + 1, credential)),
        );
        expect(statuses.filter((status) => status !== 200 && status !== 402)).toEqual([]);
        const ok = statuses.filter((status) => status === 200).length;
        answered += ok;
        if (ok === 0) return answered;
      }
      throw new Error('100 waves of 40 calls did not use the budget up');
    }

    /** Every run's cost, summed in nano-dollars; how many runs completed; how many calls reached the upstream. */
    async function runsOf(agent: string) {
      let spentNanos = 0;
      let completed = 0;
      for (let offset = 0; ; offset += 500) {
        const page = await admin<RunItem[]>(`/api/v1/admin/runs?agent_name=${agent}&limit=500&offset=${offset}`);
        spentNanos += page.reduce((sum, run) => sum + nanos(run.cost_usd), 0);
        completed += page.filter((run) => run.status === 'completed').length;
        if (page.length < 500) break;
      }
      const upstreamCalls = upstream
        .chatRequests()
        .filter((request) => askedOf(request).startsWith(`${agent} `)).length;
      return { spentNanos, completed, upstreamCalls };
    }

    async function ledgerOf(subject: string) {
      const budgets = await admin<{ subject: string; spent_usd: number; reserved_usd: number; runs_holding: number }[]>(
        '/api/v1/admin/budgets',
        1,
      );
      return budgets.find((budget) => budget.subject === subject)!;
    }

    async function analyticsNanos(agent: string): Promise<number> {
      const costs = await admin<{ total_cost_usd: number }>(`/analytics/costs?agent_name=${agent}`, 1);
      return nanos(costs.total_cost_usd);
    }

    it("holds an agent's $0.10 daily budget to at most one call over, and the ledger, usage and runs agree", async () => {
      const answered = await spendDown('daily');
      const runs = await runsOf('daily');
      // A whole wave refused: the budget is used up, and past its limit by less than one call.
      expect(runs.spentNanos).toBeGreaterThanOrEqual(LIMIT_NANOS);
      expect(runs.spentNanos).toBeLessThan(LIMIT_NANOS + ONE_CALL_NANOS);
      expect(runs.completed).toBe(answered);
      // Refused calls never reached the upstream.
      expect(runs.upstreamCalls).toBe(answered);
      expect(await analyticsNanos('daily')).toBe(runs.spentNanos);
      const daily = await ledgerOf('daily');
      expect(daily).toMatchObject({ reserved_usd: 0, runs_holding: 0 });
      expect(nanos(daily.spent_usd)).toBe(runs.spentNanos);
    });

    it('holds it with runs of two model calls each (a tool call between), each call reserved before it goes out', async () => {
      const answered = await spendDown('looping');
      const runs = await runsOf('looping');
      expect(runs.spentNanos).toBeGreaterThanOrEqual(LIMIT_NANOS);
      expect(runs.spentNanos).toBeLessThan(LIMIT_NANOS + ONE_CALL_NANOS);
      expect(runs.completed).toBe(answered);
      expect(await analyticsNanos('looping')).toBe(runs.spentNanos);
      const looping = await ledgerOf('looping');
      expect(looping).toMatchObject({ reserved_usd: 0, runs_holding: 0 });
      expect(nanos(looping.spent_usd)).toBe(runs.spentNanos);
    });

    it("holds an access token's $0.10 cap to at most one call over, and the ledger, usage and runs agree", async () => {
      const created = await fetch(`${replicas[0].url}/gateway/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agent_name: 'tokened', scopes: ['chat'], expires_in_seconds: 600, max_cost_usd: 0.1 }),
      });
      expect(created.status).toBe(201);
      const { token } = (await created.json()) as { token: string };

      const answered = await spendDown('tokened', token);
      const runs = await runsOf('tokened');
      expect(runs.spentNanos).toBeGreaterThanOrEqual(LIMIT_NANOS);
      expect(runs.spentNanos).toBeLessThan(LIMIT_NANOS + ONE_CALL_NANOS);
      expect(runs.completed).toBe(answered);
      expect(runs.upstreamCalls).toBe(answered);
      expect(await analyticsNanos('tokened')).toBe(runs.spentNanos);
      // The token reads its own budget through the other replica.
      const own = await admin<{ budget: { spent_usd: number; held_usd: number } }>('/gateway/token', 1, token);
      expect(own.budget.held_usd).toBe(0);
      expect(nanos(own.budget.spent_usd)).toBe(runs.spentNanos);
    });
  },
);
