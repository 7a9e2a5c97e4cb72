import { randomUUID } from 'node:crypto';
import { BudgetExceededError, type BudgetRefusal } from '../../errors.js';
import { retryWhileUnreachable } from '../../db/index.js';
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

/** A run's claim on its accounts, from admission until it ends: what its next model call can cost at most. */
export interface BudgetHold {
  /** Adds to the run's reservation for its next call; throws BudgetExceededError when an account cannot take it. */
  reserve(usd: number): Promise<void>;
  /** A call ended: its cost (0 when it is not billed) is spent, what the run reserved for it is freed. */
  settle(usd: number): Promise<void>;
  /** The run ended: what it was charged stays spent, what it still reserves is freed. */
  release(): Promise<void>;
}

/**
 * Budgets across concurrent runs and replicas, kept in the shared database in integer nano-dollars: before each
 * model call a run reserves what the call can cost at most, atomically on all its accounts; when the call ends
 * its cost is spent and the reservation freed. A reservation is taken while it fits under every limit, or, when
 * it does not, only if no other run has one on the account and budget is left: so spend passes a limit by less
 * than one call, and only by the call that went out alone.
 */
export interface BudgetLedger {
  /** Reserves the run's first call (`firstCallUsd` at most); throws BudgetExceededError at admission. */
  admit(runId: string, accounts: BudgetAccount[], firstCallUsd: number): Promise<BudgetHold>;
  /** Frees the reservations of runs that ended elsewhere without freeing them (a replica died). */
  releaseEnded(): Promise<number>;
}

/** Money is counted in whole nano-dollars: ten charges of $0.01 are exactly $0.10. */
export const toNanos = (usd: number): number => Math.round(usd * 1e9);

/** Dollars as a refusal states them: at most 6 decimals, no trailing zeros. */
const dollars = (nanos: number): string => `$${Number((Math.max(0, nanos) / 1e9).toFixed(6))}`;

export function createBudgetLedger(store: BudgetQueries): BudgetLedger {
  /**
   * Says which refusal it is: the account spent its limit ("used up"), or what is left (the limit less what was
   * spent and what runs in flight hold) is less than this call's estimate ("does not fit").
   */
  const refusal = async (account: BudgetAccount, estimateNanos: number, stage: BudgetRefusal['stage']) => {
    const row = (await store.listBudgetAccounts(account.key)).find((found) => found.key === account.key);
    const limitNanos = toNanos(account.limitUsd);
    const spentNanos = row?.spentNanos ?? 0;
    const name = `The ${account.label} (${dollars(limitNanos)})`;
    const message =
      spentNanos >= limitNanos
        ? `${name} is used up (${dollars(spentNanos)} spent)`
        : `${name}: this model call does not fit (estimate ${dollars(estimateNanos)}, left ` +
          `${dollars(limitNanos - spentNanos - (row?.reservedNanos ?? 0))}; ${dollars(spentNanos)} spent, ` +
          `${dollars(row?.reservedNanos ?? 0)} held by ${row?.holds ?? 0} run(s) in flight)`;
    return new BudgetExceededError(message, { budget: account.kind, stage });
  };
  // Accounts are never removed: once one exists, later admissions skip the look-up (one query less per run).
  const opened = new Set<string>();
  async function open(account: BudgetAccount): Promise<void> {
    if (opened.has(account.key)) return;
    await store.openBudgetAccount(account.key, async () => toNanos(await account.loadSpent()));
    opened.add(account.key);
  }

  return {
    async admit(runId, accounts, firstCallUsd) {
      await Promise.all(accounts.map(open));
      const limits = accounts.map((account) => ({ key: account.key, limitNanos: toNanos(account.limitUsd) }));
      const keys = accounts.map((account) => account.key);
      const reserve = async (usd: number, stage: BudgetRefusal['stage']) => {
        const nanos = toNanos(usd);
        const refused = await store.reserveBudget(runId, limits, nanos);
        if (refused !== undefined)
          throw await refusal(
            accounts.find((account) => account.key === refused)!,
            nanos,
            stage,
          );
      };
      await reserve(firstCallUsd, 'admission');
      let released = false;
      return {
        reserve: (usd) => reserve(usd, 'model_call'),
        // A call's cost is spent once it ended, whatever the database is doing: waited out, not lost. The settle
        // id makes a second try of a settle that went through change nothing.
        settle: (usd) => {
          const settleId = randomUUID();
          return retryWhileUnreachable(() => store.settleBudget(runId, keys, toNanos(usd), settleId), {
            idempotent: true,
          });
        },
        async release() {
          if (released) return;
          released = true;
          await retryWhileUnreachable(() => store.releaseBudget(runId), { idempotent: true });
        },
      };
    },
    releaseEnded: () => store.releaseEndedBudgetHolds(),
  };
}
