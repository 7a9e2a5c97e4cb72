// Reservations per second of the budget ledger: PostgreSQL (the shipped budget.store.ts) against the same
// reserve → charge → release cycle as Lua scripts in Redis, at concurrency 32, every run on the same two
// accounts (an agent's day and a token), the hot rows of a real workload. Run with
// `npx tsx bench/experiments/ledger-vs-redis.ts [runs]`; needs PostgreSQL (TEST_POSTGRES_URL) and Redis (TEST_REDIS_URL).
import { randomUUID } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createBudgetQueries } from '../../src/agents/budgets/index.js';
import { createDatabase } from '../../src/db/index.js';
import { createPostgresDatabase } from '../../test/support/databases.js';
import { TEST_REDIS_URL } from '../../test/support/redis.js';

const RUNS = Number(process.argv[2] ?? 4000);
const CONCURRENCY = 32;
const ACCOUNTS = [
  { key: 'daily:bench:2026-11-24', limitNanos: 1e15 },
  { key: 'token:tok_bench', limitNanos: 1e15 },
];
const ESTIMATE = 20_000_000; // $0.02
const COST = 10_000_000; // $0.01

interface Ledger {
  reserve(runId: string): Promise<boolean>;
  charge(runId: string): Promise<void>;
  release(runId: string): Promise<void>;
}

/** Runs RUNS cycles with CONCURRENCY in flight; resolves to cycles per second and the p50/p99 of one cycle (ms). */
async function measure(ledger: Ledger): Promise<{ perSecond: number; p50: number; p99: number }> {
  let next = 0;
  const latencies: number[] = [];
  const prefix = randomBytes(4).toString('hex');
  const worker = async () => {
    while (next < RUNS) {
      const runId = `run_${prefix}_${next++}`;
      const started = performance.now();
      if (!(await ledger.reserve(runId))) throw new Error('refused');
      await ledger.charge(runId);
      await ledger.release(runId);
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))] * 10) / 10;
  return { perSecond: Math.round(RUNS / seconds), p50: at(0.5), p99: at(0.99) };
}

const RESERVE = `
local estimate = tonumber(ARGV[1])
for i = 1, #KEYS - 1 do
  local spent = tonumber(redis.call('HGET', KEYS[i], 'spent') or '0')
  local reserved = tonumber(redis.call('HGET', KEYS[i], 'reserved') or '0')
  local holds = tonumber(redis.call('HGET', KEYS[i], 'holds') or '0')
  local limit = tonumber(ARGV[1 + i])
  if spent >= limit or (spent + reserved + estimate > limit and holds > 0) then return i end
end
for i = 1, #KEYS - 1 do
  redis.call('HINCRBY', KEYS[i], 'reserved', estimate)
  redis.call('HINCRBY', KEYS[i], 'holds', 1)
  redis.call('HSET', KEYS[#KEYS], KEYS[i], estimate)
end
return 0
`;
const CHARGE = `
local cost = tonumber(ARGV[1])
for i = 1, #KEYS - 1 do
  local held = tonumber(redis.call('HGET', KEYS[#KEYS], KEYS[i]) or '0')
  local taken = math.min(held, cost)
  redis.call('HINCRBY', KEYS[#KEYS], KEYS[i], -taken)
  redis.call('HINCRBY', KEYS[i], 'reserved', -taken)
  redis.call('HINCRBY', KEYS[i], 'spent', cost)
end
return 0
`;
const RELEASE = `
local holds = redis.call('HGETALL', KEYS[1])
for i = 1, #holds, 2 do
  redis.call('HINCRBY', holds[i], 'reserved', -tonumber(holds[i + 1]))
  redis.call('HINCRBY', holds[i], 'holds', -1)
end
redis.call('DEL', KEYS[1])
return 0
`;

function redisLedger(redis: Redis, prefix: string): Ledger {
  const accounts = ACCOUNTS.map((account) => `${prefix}${account.key}`);
  const hold = (runId: string) => `${prefix}hold:${runId}`;
  const limits = ACCOUNTS.map((account) => account.limitNanos);
  return {
    async reserve(runId) {
      const refused = (await redis.eval(
        RESERVE,
        accounts.length + 1,
        ...accounts,
        hold(runId),
        ESTIMATE,
        ...limits,
      )) as number;
      return refused === 0;
    },
    async charge(runId) {
      await redis.eval(CHARGE, accounts.length + 1, ...accounts, hold(runId), COST);
    },
    async release(runId) {
      await redis.eval(RELEASE, 1, hold(runId));
    },
  };
}

async function main(): Promise<void> {
  const database = await createPostgresDatabase();
  const handle = await createDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
  const redis = new Redis(TEST_REDIS_URL, { enableAutoPipelining: true });
  try {
    const store = createBudgetQueries(handle.db);
    for (const account of ACCOUNTS) await store.openBudgetAccount(account.key, () => Promise.resolve(0));
    const keys = ACCOUNTS.map((account) => account.key);
    const postgres: Ledger = {
      reserve: async (runId) => (await store.reserveBudget(runId, ACCOUNTS, ESTIMATE)) === undefined,
      charge: (runId) => store.settleBudget(runId, keys, COST, randomUUID()),
      release: (runId) => store.releaseBudget(runId),
    };
    const prefix = `bench-ledger:${randomBytes(4).toString('hex')}:`;
    const results = {
      postgres: await measure(postgres),
      redis: await measure(redisLedger(redis, prefix)),
    };
    const rows = await store.listBudgetAccounts('');
    const spentOk = rows.every((row) => row.spentNanos === RUNS * COST && row.reservedNanos === 0 && row.holds === 0);
    process.stdout.write(
      `${JSON.stringify({ runs: RUNS, concurrency: CONCURRENCY, cycle: 'reserve+charge+release on 2 accounts', postgres_exact: spentOk, ...results }, null, 2)}\n`,
    );
    const stale = await redis.keys(`${prefix}*`);
    if (stale.length > 0) await redis.del(...stale);
  } finally {
    redis.disconnect();
    await handle.close();
    await database.drop();
  }
}

await main();
