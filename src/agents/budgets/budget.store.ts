import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../../db/index.js';
import { ACTIVE_RUN_STATUSES } from '../records/run.types.js';

/** One account a run reserves on, with the limit it must stay within. */
export interface BudgetLimit {
  key: string;
  limitNanos: number;
}

/** The shared budget ledger's rows: every replica reserves, charges and releases against the same accounts. */
export interface BudgetQueries {
  /** Creates the account unless it exists; `openingSpentNanos` (what stored runs spent) is read only then. */
  openBudgetAccount(key: string, openingSpentNanos: () => Promise<number>): Promise<void>;
  /**
   * Adds `nanos` to the run's reservation on every account, or on none: returns the key of an account that
   * cannot take it. An account with something left takes a reservation that fits under its limit, or any while
   * no other run has a reservation on it, so at most one call in flight takes an account past its limit.
   */
  reserveBudget(runId: string, limits: readonly BudgetLimit[], nanos: number): Promise<string | undefined>;
  /**
   * A call ended: its cost (`nanos`, 0 for a call not billed) is spent on every account, the run's reservation
   * freed. `settleId` names the call: settling it again (a retry after an unanswered COMMIT) changes nothing.
   */
  settleBudget(runId: string, keys: readonly string[], nanos: number, settleId: string): Promise<void>;
  /** What each account has spent (finished calls). */
  budgetSpent(keys: readonly string[]): Promise<Map<string, number>>;
  /** Accounts whose key starts with `prefix`, for the operators' view. */
  listBudgetAccounts(prefix: string): Promise<BudgetAccountRow[]>;
  /** Frees what the run still reserves; idempotent. */
  releaseBudget(runId: string): Promise<void>;
  /** Releases the holds of runs that ended without releasing them (their process died); returns how many runs. */
  releaseEndedBudgetHolds(): Promise<number>;
}

export interface BudgetAccountRow {
  key: string;
  spentNanos: number;
  reservedNanos: number;
  /** Runs holding a reservation on it now. */
  holds: number;
}

/**
 * Every transaction locks accounts in this one order (UTF-16 code units, not a locale or a database
 * collation), so two of them never wait on each other's account rows: PostgreSQL would abort one with
 * "deadlock detected".
 */
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function createBudgetQueries(db: Kysely<Database>): BudgetQueries {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  /** The run's hold on the account, locked until the transaction ends. */
  const holdOf = (trx: Kysely<Database>, runId: string, key: string) =>
    trx
      .selectFrom('budget_holds')
      .select(['reserved_nanos', 'last_settle_id'])
      .where('run_id', '=', runId)
      .where('account_key', '=', key)
      .$if(postgres, (query) => query.forUpdate())
      .executeTakeFirst();

  async function release(trx: Kysely<Database>, runId: string): Promise<void> {
    const holds = await trx
      .selectFrom('budget_holds')
      .select(['account_key', 'reserved_nanos'])
      .where('run_id', '=', runId)
      .$if(postgres, (query) => query.forUpdate())
      .execute();
    for (const hold of holds.sort((a, b) => byKey(a.account_key, b.account_key))) {
      await trx
        .updateTable('budget_accounts')
        .set({
          reserved_nanos: sql<number>`reserved_nanos - ${Number(hold.reserved_nanos)}`,
          holds: sql<number>`holds - 1`,
        })
        .where('account_key', '=', hold.account_key)
        .execute();
    }
    await trx.deleteFrom('budget_holds').where('run_id', '=', runId).execute();
  }

  return {
    async openBudgetAccount(key, openingSpentNanos) {
      const found = await db
        .selectFrom('budget_accounts')
        .select('account_key')
        .where('account_key', '=', key)
        .executeTakeFirst();
      if (found) return;
      const spent = await openingSpentNanos();
      // Two replicas opening at once read the same stored spend; the first insert wins.
      await db
        .insertInto('budget_accounts')
        .values({ account_key: key, spent_nanos: spent })
        .onConflict((conflict) => conflict.column('account_key').doNothing())
        .execute();
    },

    async reserveBudget(runId, limits, nanos) {
      // A fixed lock order, so two runs reserving on the same two accounts cannot deadlock.
      const ordered = [...limits].sort((a, b) => byKey(a.key, b.key));
      let refused: string | undefined;
      try {
        await db.transaction().execute(async (trx) => {
          for (const { key, limitNanos } of ordered) {
            const hold = await holdOf(trx, runId, key);
            const own = Number(hold?.reserved_nanos ?? 0);
            const result = await trx
              .updateTable('budget_accounts')
              .set({
                reserved_nanos: sql<number>`reserved_nanos + ${nanos}`,
                holds: sql<number>`holds + ${hold ? 0 : 1}`,
              })
              .where('account_key', '=', key)
              .where('spent_nanos', '<', limitNanos)
              .where((eb) =>
                eb.or([
                  eb(sql<number>`spent_nanos + reserved_nanos + ${nanos}`, '<=', limitNanos),
                  // Nothing reserved but this run's own: no other call is in flight on the account.
                  eb('reserved_nanos', '=', own),
                ]),
              )
              .executeTakeFirst();
            if (Number(result.numUpdatedRows) === 0) {
              refused = key;
              throw new Error('budget refused');
            }
            if (hold)
              await trx
                .updateTable('budget_holds')
                .set({ reserved_nanos: sql<number>`reserved_nanos + ${nanos}` })
                .where('run_id', '=', runId)
                .where('account_key', '=', key)
                .execute();
            else
              await trx
                .insertInto('budget_holds')
                .values({ run_id: runId, account_key: key, reserved_nanos: nanos })
                .execute();
          }
        });
      } catch (error) {
        if (refused === undefined) throw error;
      }
      return refused;
    },

    async settleBudget(runId, keys, nanos, settleId) {
      if (keys.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const key of [...keys].sort(byKey)) {
          // After a sweep released the hold, the cost is still spent; nothing is left reserved to free.
          const hold = await holdOf(trx, runId, key);
          // Settled already: this is a retry of a settle whose COMMIT went through unanswered.
          if (hold && hold.last_settle_id === settleId) continue;
          const freed = Number(hold?.reserved_nanos ?? 0);
          if (hold) {
            await trx
              .updateTable('budget_holds')
              .set({
                reserved_nanos: 0,
                charged_nanos: sql<number>`charged_nanos + ${nanos}`,
                last_settle_id: settleId,
              })
              .where('run_id', '=', runId)
              .where('account_key', '=', key)
              .execute();
          }
          if (nanos === 0 && freed === 0) continue;
          await trx
            .updateTable('budget_accounts')
            .set({
              spent_nanos: sql<number>`spent_nanos + ${nanos}`,
              reserved_nanos: sql<number>`reserved_nanos - ${freed}`,
            })
            .where('account_key', '=', key)
            .execute();
        }
      });
    },

    async budgetSpent(keys) {
      if (keys.length === 0) return new Map();
      const rows = await db
        .selectFrom('budget_accounts')
        .select(['account_key', 'spent_nanos'])
        .where('account_key', 'in', keys)
        .execute();
      return new Map(rows.map((row) => [row.account_key, Number(row.spent_nanos)]));
    },

    async listBudgetAccounts(prefix) {
      const rows = await db
        .selectFrom('budget_accounts')
        .selectAll()
        .where('account_key', 'like', `${prefix}%`)
        .orderBy('account_key')
        .execute();
      return rows.map((row) => ({
        key: row.account_key,
        spentNanos: Number(row.spent_nanos),
        reservedNanos: Number(row.reserved_nanos),
        holds: Number(row.holds),
      }));
    },

    async releaseBudget(runId) {
      await db.transaction().execute((trx) => release(trx, runId));
    },

    async releaseEndedBudgetHolds() {
      // Only runs that exist and have ended: a hold is taken before its run's row may be committed.
      const ended = await db
        .selectFrom('budget_holds')
        .innerJoin('runs', 'runs.run_id', 'budget_holds.run_id')
        .select('budget_holds.run_id')
        .distinct()
        .where('runs.status', 'not in', ACTIVE_RUN_STATUSES)
        .execute();
      for (const { run_id } of ended) await db.transaction().execute((trx) => release(trx, run_id));
      return ended.length;
    },
  };
}
