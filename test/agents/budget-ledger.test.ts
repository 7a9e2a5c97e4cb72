import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createBudgetLedger, type BudgetAccount, type BudgetLedger } from '../../src/agents/budgets/budget-ledger.js';
import { createRunStore, type RunStore } from '../../src/agents/records/run.store.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { BudgetExceededError } from '../../src/errors.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';

let sequence = 0;
const runId = () => `run_${String(++sequence).padStart(20, '0')}`;

await describeEachDialect('shared budget ledger', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let store: RunStore;
  let ledger: BudgetLedger;
  let key = '';
  const account = (overrides: Partial<BudgetAccount> = {}): BudgetAccount => ({
    key,
    kind: 'agent_daily',
    limitUsd: 1,
    label: 'daily budget of agent "a"',
    loadSpent: async () => 0,
    ...overrides,
  });

  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    store = createRunStore(database.db);
    ledger = createBudgetLedger(store);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });
  beforeEach(() => {
    key = `daily:a:${++sequence}`;
  });

  it('admits concurrent runs while their first calls fit, and refuses the rest, reading the stored spend once', async () => {
    const load = vi.fn(async () => 0.2);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => ledger.admit(runId(), [account({ loadSpent: load })], 0.25)),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(BudgetExceededError);
    // Nothing like used up: the refusal says the call does not fit what is left, and why.
    expect(refused.reason.message).toBe(
      'The daily budget of agent "a" ($1): this model call does not fit (estimate $0.25, left $0.05; ' +
        '$0.2 spent, $0.75 held by 3 run(s) in flight)',
    );
    // Concurrent first admissions may each read it, but only one opening is kept.
    const again = await ledger.admit(runId(), [account({ loadSpent: load })], 0).catch((error: unknown) => error);
    expect(load.mock.calls.length).toBeLessThanOrEqual(10);
    expect(again).toBeDefined();
  });

  it('says "used up" only once what was spent reached the limit', async () => {
    const run = runId();
    await ledger.admit(run, [account()], 0.5);
    await store.settleBudget(run, [key], 1_000_000_000, 'settle-all');
    const refused = await ledger.admit(runId(), [account()], 0.01).catch((error: unknown) => error);
    expect((refused as Error).message).toBe('The daily budget of agent "a" ($1) is used up ($1 spent)');
  });

  it('charges a call settled twice under one settle id once (a retry after a COMMIT whose answer was lost)', async () => {
    const run = runId();
    await ledger.admit(run, [account()], 0.3);
    await store.settleBudget(run, [key], 200_000_000, 'settle-1');
    await store.settleBudget(run, [key], 200_000_000, 'settle-1');
    expect((await store.budgetSpent([key])).get(key)).toBe(200_000_000);
    await store.settleBudget(run, [key], 100_000_000, 'settle-2');
    expect((await store.budgetSpent([key])).get(key)).toBe(300_000_000);
  });

  it('counts money in whole nano-dollars: ten charges of $0.01 fill a $0.10 budget exactly', async () => {
    const limited = account({ limitUsd: 0.1 });
    for (let call = 0; call < 10; call += 1) {
      const hold = await ledger.admit(runId(), [limited], 0.01);
      await hold.settle(0.01);
      await hold.release();
    }
    await expect(ledger.admit(runId(), [limited], 0.01)).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(ledger.admit(runId(), [limited], 0)).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('lets 40 concurrent runs with exact estimates take a $0.10 budget exactly ten times, across two ledgers (two replicas)', async () => {
    const other = createBudgetLedger(createRunStore(database.db));
    const limited = account({ limitUsd: 0.1 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, async (_, index) => {
        const hold = await (index % 2 === 0 ? ledger : other).admit(runId(), [limited], 0.01);
        await hold.settle(0.01);
        await hold.release();
      }),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
    expect((await store.budgetSpent([key])).get(key)).toBe(100_000_000);
  });

  it('lets one call past a reservation that does not fit, only while no other call is in flight on the account', async () => {
    const first = await ledger.admit(runId(), [account()], 5);
    await expect(ledger.admit(runId(), [account()], 0.01)).rejects.toBeInstanceOf(BudgetExceededError);
    await first.settle(0.4);
    // The first run still holds the account, between its calls: another run's call may go out alone.
    const second = await ledger.admit(runId(), [account()], 5);
    await expect(first.reserve(0.01)).rejects.toMatchObject({ refusal: { stage: 'model_call' } });
    await second.settle(0.7);
    // 1.1 spent: the limit is reached, nothing more is admitted or reserved, not even a free call.
    await expect(ledger.admit(runId(), [account()], 0)).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(first.reserve(0)).rejects.toBeInstanceOf(BudgetExceededError);
    await first.release();
    await second.release();
    expect((await store.listBudgetAccounts(key))[0]).toMatchObject({ spentNanos: 1.1e9, reservedNanos: 0, holds: 0 });
  });

  it("reserves each later call of a run, refused while others' reservations leave no room", async () => {
    const hold = await ledger.admit(runId(), [account()], 0.6);
    await expect(ledger.admit(runId(), [account()], 0.6)).rejects.toBeInstanceOf(BudgetExceededError);
    await hold.settle(0.1);
    const next = await ledger.admit(runId(), [account()], 0.85);
    // 0.1 spent and 0.85 reserved: the first run's next call of up to 0.1 does not fit.
    await expect(hold.reserve(0.1)).rejects.toBeInstanceOf(BudgetExceededError);
    await next.settle(0.5);
    await hold.reserve(0.3);
    expect((await store.listBudgetAccounts(key))[0]).toMatchObject({
      spentNanos: 0.6e9,
      reservedNanos: 0.3e9,
      holds: 2,
    });
    // A call that was not billed frees its reservation all the same.
    await hold.settle(0);
    await hold.release();
    await hold.release();
    await next.release();
    expect((await store.listBudgetAccounts(key))[0]).toMatchObject({ spentNanos: 0.6e9, reservedNanos: 0, holds: 0 });
  });

  it('keeps 40 concurrent runs of calls costing $0.001 to $0.02 (reserving $0.02 each) within one call of a $0.10 budget, across two ledgers', async () => {
    const other = createBudgetLedger(createRunStore(database.db));
    const limited = account({ limitUsd: 0.1 });
    let calls = 0;
    // Each run makes calls until refused, the way a run with tool calls does.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, async (_, index) => {
        const hold = await (index % 2 === 0 ? ledger : other).admit(runId(), [limited], 0.02);
        try {
          for (;;) {
            calls += 1;
            await hold.settle(((calls % 20) + 1) / 1000);
            await hold.reserve(0.02);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(BudgetExceededError);
        } finally {
          await hold.release();
        }
      }),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled').length).toBeGreaterThan(0);
    const [row] = await store.listBudgetAccounts(key);
    expect(row.spentNanos).toBeGreaterThanOrEqual(100_000_000);
    expect(row.spentNanos).toBeLessThan(120_000_000);
    expect(row).toMatchObject({ reservedNanos: 0, holds: 0 });
  });

  it('runs 64 concurrent admit → settle → release cycles on two shared accounts without a deadlock, to the exact nano-dollar', async () => {
    // Each release used to lock the run's accounts in whatever order the database returned its holds.
    const day = account({ limitUsd: 100 });
    const token = account({ key: `token:t${++sequence}`, limitUsd: 100 });
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        const hold = await ledger.admit(runId(), [token, day], 0.02);
        await hold.settle(0.01);
        await hold.release();
      }),
    );
    const spent = await store.budgetSpent([day.key, token.key]);
    expect([...spent.values()]).toEqual([640_000_000, 640_000_000]);
  });

  it('reserves on every account or on none', async () => {
    const token = account({ key: `token:t${sequence}`, limitUsd: 0.05, label: 'max_cost_usd of access token t' });
    await expect(ledger.admit(runId(), [account(), token], 0.1)).resolves.toBeDefined();
    // The token refuses a second run: the day keeps nothing of that attempt.
    await expect(ledger.admit(runId(), [account(), token], 0.1)).rejects.toThrow('max_cost_usd of access token t');
    const day = await ledger.admit(runId(), [account()], 0.9);
    await expect(ledger.admit(runId(), [account()], 0.01)).rejects.toBeInstanceOf(BudgetExceededError);
    await day.release();
  });

  it('gives back the reservation of a run that ended on a dead replica', async () => {
    const orphan = runId();
    await ledger.admit(orphan, [account()], 0.9);
    await expect(ledger.admit(runId(), [account()], 0.5)).rejects.toBeInstanceOf(BudgetExceededError);
    // The dead replica's run was marked interrupted by the sweep; its hold was never released.
    await database.db
      .insertInto('runs')
      .values({
        run_id: orphan,
        agent_name: 'a',
        model: 'm',
        status: 'interrupted',
        started_at: '2030-01-01T00:00:00.000Z',
        finished_at: null,
        source: 'chat',
        input_tokens: 0,
        output_tokens: 0,
        total_tokens: 0,
        cost_usd: 0,
        steps: 0,
        error_code: null,
        error_message: null,
        output: null,
        token_id: null,
        session_id: null,
        control_request: null,
        heartbeat_at: null,
      })
      .execute();
    expect(await ledger.releaseEnded()).toBe(1);
    await expect(ledger.admit(runId(), [account()], 0.5)).resolves.toBeDefined();
  });
});
