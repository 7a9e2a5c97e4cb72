import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createAnalyticsQueryStore,
  createAnalyticsService,
  createAnalyticsWriteStore,
  createUsageRecorder,
  type AnalyticsWriteStore,
} from '../../src/analytics/index.js';
import { createGroupCommit, type DatabaseHandle, type Write, type WriteQueue } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { openAnalyticsDatabase, usage } from './analytics-fixtures.js';

/** The real store, counting its transactions. */
function countingStore(store: AnalyticsWriteStore) {
  const counted = { transactions: 0, rows: [] as number[] };
  return Object.assign(counted, {
    async writeBatch(batch: Parameters<AnalyticsWriteStore['writeBatch']>[0]) {
      counted.transactions += 1;
      counted.rows.push(batch.usage.length + batch.risks.length);
      await store.writeBatch(batch);
    },
  });
}

await describeEachDialect('usage recorder', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let writeStore: AnalyticsWriteStore;

  beforeAll(async () => {
    database = await dialect.create();
    handle = await openAnalyticsDatabase(database);
    writeStore = createAnalyticsWriteStore(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  async function countRows(table: 'usage_records' | 'risk_events', runId: string): Promise<number> {
    const result = await sql<{
      n: string | number;
    }>`select count(*) as n from ${sql.table(table)} where run_id = ${runId}`.execute(handle.db);
    return Number(result.rows[0].n);
  }

  it('commits many concurrent records in a few multi-row transactions', async () => {
    const store = countingStore(writeStore);
    const recorder = createUsageRecorder({ store, maxBatch: 500 });
    const writes = [
      ...Array.from({ length: 1200 }, (_, i) =>
        recorder.record(usage({ run_id: 'run_many', cost_usd: 0.000001 * (i % 7) })),
      ),
      ...Array.from({ length: 60 }, () =>
        recorder.recordRisk({
          run_id: 'run_many',
          agent_name: 'helper',
          type: 'pii',
          entity: 'email',
          action: 'log',
        }),
      ),
    ];
    await Promise.all(writes);
    expect(await countRows('usage_records', 'run_many')).toBe(1200);
    expect(await countRows('risk_events', 'run_many')).toBe(60);
    expect(store.transactions).toBeLessThanOrEqual(3);
    expect(store.rows.every((rows) => rows <= 500)).toBe(true);
    await recorder.close();
  });

  it('keeps the daily totals equal to the records it wrote', async () => {
    const recorder = createUsageRecorder({ store: writeStore, maxBatch: 7 });
    const days = ['2025-06-01', '2025-06-02', '2025-06-03'];
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        recorder.record(
          usage({
            run_id: 'run_totals',
            agent_name: `agent-${i % 3}`,
            model: `p/m${i % 2}`,
            created_at: `${days[i % 3]}T${String(i % 24).padStart(2, '0')}:00:00Z`,
            input_tokens: i,
            output_tokens: 2 * i,
            cost_usd: i / 1000,
          }),
        ),
      ),
    );
    const store = createAnalyticsQueryStore(handle.db);
    const filter = { since: '2025-06-01T00:00:00.000Z', until: '2025-06-04T00:00:00.000Z' };
    const fromTotals = await createAnalyticsService({ store }).agents(filter);
    expect(fromTotals).toEqual(await createAnalyticsService({ store, dailyTotals: false }).agents(filter));
    expect(fromTotals.reduce((total, agent) => total + agent.request_count, 0)).toBe(100);
  });

  it('queues records on the write queue at once, one write for those of a turn', async () => {
    const group = createGroupCommit(handle.db);
    const queued: Write[] = [];
    const writes: WriteQueue = {
      write: (write, options) => (queued.push(write), group.write(write, options)),
      flush: () => group.flush(),
      close: () => group.close(),
    };
    const recorder = createUsageRecorder({ store: createAnalyticsWriteStore(handle.db, writes) });
    const first = [
      recorder.record(usage({ run_id: 'run_joined' })),
      recorder.record(usage({ run_id: 'run_joined' })),
      recorder.recordRisk({ run_id: 'run_joined', agent_name: 'helper', type: 'pii', entity: 'email', action: 'log' }),
    ];
    // Queued before this turn ends: the group commit's transaction of this turn takes them, no turn of its own.
    expect(queued).toHaveLength(1);
    await Promise.all(first);
    await recorder.record(usage({ run_id: 'run_joined' }));
    expect(queued).toHaveLength(2);
    expect(await countRows('usage_records', 'run_joined')).toBe(3);
    expect(await countRows('risk_events', 'run_joined')).toBe(1);
    await recorder.close();
  });

  it('records again once the database is back, after batches whose transaction never started', async () => {
    const group = createGroupCommit(handle.db);
    let reachable = false;
    // Out of reach: the write queue refuses before the write runs, as a transaction that cannot begin does.
    const writes: WriteQueue = {
      write: (write, options) =>
        reachable ? group.write(write, options) : Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
      flush: () => group.flush(),
      close: () => group.close(),
    };
    const recorder = createUsageRecorder({ store: createAnalyticsWriteStore(handle.db, writes) });
    await expect(recorder.record(usage({ run_id: 'run_outage' }))).rejects.toThrow(/ECONNREFUSED/);
    await expect(recorder.record(usage({ run_id: 'run_outage' }))).rejects.toThrow(/ECONNREFUSED/);
    reachable = true;
    await recorder.record(usage({ run_id: 'run_after' }));
    await recorder.record(usage({ run_id: 'run_after' }));
    expect(await countRows('usage_records', 'run_after')).toBe(2);
    await recorder.close();
  });

  it('writes a lone record without waiting for company by default', async () => {
    const recorder = createUsageRecorder({ store: writeStore });
    await recorder.record(usage({ run_id: 'run_alone' }));
    expect(await countRows('usage_records', 'run_alone')).toBe(1);
    await recorder.close();
  });

  it('waits flushIntervalMs for company, unless flush() writes what is pending', async () => {
    const store = countingStore(writeStore);
    const recorder = createUsageRecorder({ store, flushIntervalMs: 60_000 });
    const pending = [
      recorder.record(usage({ run_id: 'run_linger' })),
      recorder.record(usage({ run_id: 'run_linger' })),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    expect(await countRows('usage_records', 'run_linger')).toBe(0);
    await recorder.flush();
    expect(await countRows('usage_records', 'run_linger')).toBe(2);
    await Promise.all(pending);
    expect(store.transactions).toBe(1);
    await recorder.close();
  });

  it('rejects every record of a failed transaction, and goes on writing later ones', async () => {
    const recorder = createUsageRecorder({ store: writeStore });
    const first = recorder.record(usage({ run_id: 'run_fail', usage_id: 'use_duplicate' }));
    const duplicate = recorder.record(usage({ run_id: 'run_fail', usage_id: 'use_duplicate' }));
    const neighbour = recorder.record(usage({ run_id: 'run_fail' }));
    const results = await Promise.allSettled([first, duplicate, neighbour]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await countRows('usage_records', 'run_fail')).toBe(0);
    await recorder.record(usage({ run_id: 'run_fail' }));
    expect(await countRows('usage_records', 'run_fail')).toBe(1);
    await recorder.close();
  });

  it('refuses a record it cannot store without affecting the others', async () => {
    const recorder = createUsageRecorder({ store: writeStore });
    const bad = recorder.record(usage({ run_id: 'run_bad', created_at: 'yesterday' }));
    const good = recorder.record(usage({ run_id: 'run_bad', input_tokens: Number.NaN }));
    await expect(bad).rejects.toThrow(/created_at/);
    await good;
    expect(await countRows('usage_records', 'run_bad')).toBe(1);
    await recorder.close();
  });

  it('writes everything accepted on close(), then refuses new records', async () => {
    const recorder = createUsageRecorder({ store: writeStore, flushIntervalMs: 60_000 });
    const accepted = Array.from({ length: 20 }, () => recorder.record(usage({ run_id: 'run_close' })));
    await recorder.close();
    expect(await countRows('usage_records', 'run_close')).toBe(20);
    await Promise.all(accepted);
    await expect(recorder.record(usage({ run_id: 'run_close' }))).rejects.toThrow(/closed/);
    await expect(
      recorder.recordRisk({ run_id: null, agent_name: 'helper', type: 'pii', entity: 'email', action: 'log' }),
    ).rejects.toThrow(/closed/);
  });
});

describe('usage recorder with a failing store', () => {
  it('rejects the waiting callers with the store error', async () => {
    const recorder = createUsageRecorder({
      store: {
        writeBatch: async () => {
          throw new Error('database unreachable');
        },
      },
    });
    const results = await Promise.allSettled([
      recorder.record(usage()),
      recorder.recordRisk({
        run_id: 'run_1',
        agent_name: 'helper',
        type: 'hallucination',
        entity: 'ungrounded_answer',
        action: 'warn',
      }),
    ]);
    expect(results).toEqual([
      { status: 'rejected', reason: new Error('database unreachable') },
      { status: 'rejected', reason: new Error('database unreachable') },
    ]);
    await recorder.close();
  });

  it('batches records that arrive while a write is in flight', async () => {
    const batches: number[] = [];
    let release: () => void = () => undefined;
    const recorder = createUsageRecorder({
      store: {
        writeBatch: (batch) => {
          batches.push(batch.usage.length);
          return new Promise<void>((resolve) => (release = resolve));
        },
      },
    });
    const first = recorder.record(usage());
    await new Promise((resolve) => setImmediate(resolve));
    const during = Array.from({ length: 10 }, () => recorder.record(usage()));
    release();
    await first;
    await vi.waitFor(() => expect(batches).toHaveLength(2));
    release();
    await Promise.all(during);
    expect(batches).toEqual([1, 10]);
  });
});
