import { BudgetExceededError } from '../errors.js';

/** One budget that runs spend from: an agent's day, an access token. */
export interface BudgetAccount {
  key: string;
  /** Accounts of one scope replace each other (an agent's days): a new key drops the idle older ones. */
  scope: string;
  limitUsd: number;
  /** Names the budget in the error, e.g. `daily budget of agent "helper"`. */
  label: string;
  /** Kept while no run holds it (an agent's day); otherwise dropped and loaded again next time (tokens). */
  keepIdle: boolean;
  /** What finished runs already spent, from the store. */
  loadSpent(): Promise<number>;
}

/** A run's claim on its accounts, from admission until it ends. */
export interface BudgetHold {
  /** Adds the cost of one model call. */
  charge(usd: number): void;
  /** Throws BudgetExceededError once an account's spend reached its limit. */
  check(): void;
  /** The run ended: what it was charged stays spent, the rest of its reservation is freed. */
  release(): void;
}

/**
 * Budgets across concurrent runs: each account holds the stored spend plus the claims of live runs
 * (the larger of a run's estimate and its charges so far). A run is admitted while its estimate fits,
 * or, when it does not, only if no other run holds the account and budget is left: at most one call
 * in flight can take an account past its limit.
 */
export interface BudgetLedger {
  admit(accounts: BudgetAccount[], estimateUsd: number): Promise<BudgetHold>;
}

interface AccountState {
  account: BudgetAccount;
  spent: number;
  claimed: number;
  charged: number;
  holds: number;
  /** Admissions between opening the account and reserving on it: it must not be dropped meanwhile. */
  opening: number;
  loaded: Promise<void>;
}

// Costs are rounded to 1e-9 USD; a sum a hair over the limit from float error must still fit.
const EPSILON = 1e-12;

export function createBudgetLedger(): BudgetLedger {
  const states = new Map<string, AccountState>();

  function open(account: BudgetAccount): AccountState {
    let state = states.get(account.key);
    if (!state) {
      for (const [key, other] of states) if (other.account.scope === account.scope && isIdle(other)) states.delete(key);
      const created: AccountState = { account, spent: 0, claimed: 0, charged: 0, holds: 0, opening: 0, loaded: Promise.resolve() };
      created.loaded = account.loadSpent().then((spent) => void (created.spent += spent));
      // A failed load must not leave a zero balance behind for the next run.
      created.loaded.catch(() => states.delete(account.key));
      states.set(account.key, (state = created));
    }
    state.opening += 1;
    return state;
  }

  function close(state: AccountState): void {
    if (isIdle(state) && !state.account.keepIdle && states.get(state.account.key) === state) states.delete(state.account.key);
  }

  return {
    async admit(accounts, estimateUsd) {
      const opened = accounts.map(open);
      try {
        await Promise.all(opened.map((state) => state.loaded));
        const full = opened.find((state) => !fits(state, estimateUsd));
        if (full) throw new BudgetExceededError(`The ${full.account.label} ($${full.account.limitUsd}) is used up`);
        for (const state of opened) state.holds += 1;
        return createHold(opened, estimateUsd, close);
      } finally {
        for (const state of opened) {
          state.opening -= 1;
          close(state);
        }
      }
    },
  };
}

function isIdle(state: AccountState): boolean {
  return state.holds === 0 && state.opening === 0;
}

function fits(state: AccountState, estimateUsd: number): boolean {
  const { spent, claimed, account } = state;
  if (spent + claimed + estimateUsd <= account.limitUsd + EPSILON) return true;
  return state.holds === 0 && spent < account.limitUsd;
}

function createHold(states: AccountState[], estimateUsd: number, close: (state: AccountState) => void): BudgetHold {
  let charged = 0;
  let released = false;
  for (const state of states) state.claimed += estimateUsd;
  return {
    charge(usd) {
      if (released || usd <= 0) return;
      const before = Math.max(estimateUsd, charged);
      charged += usd;
      for (const state of states) {
        state.claimed += Math.max(estimateUsd, charged) - before;
        state.charged += usd;
      }
    },
    check() {
      const full = states.find((state) => state.spent + state.charged >= state.account.limitUsd - EPSILON);
      if (full) throw new BudgetExceededError(`The ${full.account.label} ($${full.account.limitUsd}) is used up`);
    },
    release() {
      if (released) return;
      released = true;
      for (const state of states) {
        state.holds -= 1;
        state.spent += charged;
        // Float sums of claims drift; an account nobody holds has none.
        state.claimed = state.holds === 0 ? 0 : Math.max(0, state.claimed - Math.max(estimateUsd, charged));
        state.charged = state.holds === 0 ? 0 : Math.max(0, state.charged - charged);
        close(state);
      }
    },
  };
}
