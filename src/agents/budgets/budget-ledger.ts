import { BudgetExceededError, type BudgetRefusal } from '../../errors.js';
import type { BudgetQueries } from './budget.store.js';

/** One budget that runs spend from: an agent's day, an access token. */
export interface BudgetAccount {
  key: string;
  kind: 'agent_daily' | 'token';
  limitUsd: number;
  /** Names the budget in the error, e.g. `daily budget of agent "helper"`. */
  label: string;
  /** What stored runs already spent, read once when the shared account is first opened. */
  loadSpent(): Promise<number>;
}

/** A run's claim on its accounts, from admission until it ends. */
export interface BudgetHold {
  /** Adds the cost of one model call. */
  charge(usd: number): Promise<void>;
  /** Throws BudgetExceededError once an account's spend reached its limit. */
  check(): Promise<void>;
  /** The run ended: what it was charged stays spent, the rest of its reservation is freed. */
  release(): Promise<void>;
}

/**
 * Budgets across concurrent runs and replicas, kept in the shared database in integer nano-dollars:
 * admission reserves the run's estimate atomically, each model call's cost is charged, the end releases
 * the rest. A run is admitted while its estimate fits, or, when it does not, only if no other run holds
 * the account and budget is left: at most one call in flight can take an account past its limit.
 */
export interface BudgetLedger {
  admit(runId: string, accounts: BudgetAccount[], estimateUsd: number): Promise<BudgetHold>;
  /** Frees the reservations of runs that ended elsewhere without freeing them (a replica died). */
  releaseEnded(): Promise<number>;
}

/** Money is counted in whole nano-dollars: ten charges of $0.01 are exactly $0.10. */
export const toNanos = (usd: number): number => Math.round(usd * 1e9);

export function createBudgetLedger(store: BudgetQueries): BudgetLedger {
  const usedUp = (account: BudgetAccount, stage: BudgetRefusal['stage']) =>
    new BudgetExceededError(`The ${account.label} ($${account.limitUsd}) is used up`, { budget: account.kind, stage });
  // Accounts are never removed: once one exists, later admissions skip the look-up (one query less per run).
  const opened = new Set<string>();
  async function open(account: BudgetAccount): Promise<void> {
    if (opened.has(account.key)) return;
    await store.openBudgetAccount(account.key, async () => toNanos(await account.loadSpent()));
    opened.add(account.key);
  }

  return {
    async admit(runId, accounts, estimateUsd) {
      await Promise.all(accounts.map(open));
      const limits = accounts.map((account) => ({ key: account.key, limitNanos: toNanos(account.limitUsd) }));
      const refused = await store.reserveBudget(runId, limits, toNanos(estimateUsd));
      if (refused !== undefined)
        throw usedUp(
          accounts.find((account) => account.key === refused)!,
          'admission',
        );
      const keys = accounts.map((account) => account.key);
      let released = false;
      return {
        async charge(usd) {
          await store.chargeBudget(runId, keys, toNanos(usd));
        },
        async check() {
          const spent = await store.budgetSpent(keys);
          const full = limits.find((limit) => (spent.get(limit.key) ?? 0) >= limit.limitNanos);
          if (full)
            throw usedUp(
              accounts.find((account) => account.key === full.key)!,
              'model_call',
            );
        },
        async release() {
          if (released) return;
          released = true;
          await store.releaseBudget(runId);
        },
      };
    },
    releaseEnded: () => store.releaseEndedBudgetHolds(),
  };
}
