import { describe, expect, it, vi } from 'vitest';
import { createBudgetLedger, type BudgetAccount } from '../../src/agents/budget-ledger.js';
import { BudgetExceededError } from '../../src/errors.js';

function account(overrides: Partial<BudgetAccount> = {}): BudgetAccount {
  return { key: 'daily:a:2026-01-01', scope: 'daily:a', limitUsd: 1, label: 'daily budget of agent "a"', keepIdle: true, loadSpent: async () => 0, ...overrides };
}

describe('budget ledger', () => {
  it('admits concurrent runs while their estimates fit, and refuses the rest', async () => {
    const ledger = createBudgetLedger();
    const load = vi.fn(async () => 0.2);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => ledger.admit([account({ loadSpent: load })], 0.25)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(BudgetExceededError);
    expect(refused.reason.message).toContain('daily budget of agent "a" ($1) is used up');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('lets one run past an estimate that does not fit, only while no other run holds the account', async () => {
    const ledger = createBudgetLedger();
    const first = await ledger.admit([account()], 5);
    await expect(ledger.admit([account()], 0.01)).rejects.toBeInstanceOf(BudgetExceededError);
    first.charge(0.4);
    first.release();
    const second = await ledger.admit([account()], 5);
    second.charge(0.7);
    second.release();
    // 1.1 spent: the limit is reached, nothing more is admitted.
    await expect(ledger.admit([account()], 0)).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('frees what a run reserved beyond its charges when it ends, and keeps its charges spent', async () => {
    const ledger = createBudgetLedger();
    const hold = await ledger.admit([account()], 0.6);
    await expect(ledger.admit([account()], 0.6)).rejects.toBeInstanceOf(BudgetExceededError);
    hold.charge(0.1);
    hold.release();
    const next = await ledger.admit([account()], 0.85);
    next.charge(0.5);
    // Only actual spend counts for the check before a later call: 0.1 + 0.5 is below the limit.
    expect(() => next.check()).not.toThrow();
    next.charge(0.4);
    expect(() => next.check()).toThrow(BudgetExceededError);
  });

  it('drops an idle token account and loads it again, but keeps an agent’s day', async () => {
    const ledger = createBudgetLedger();
    const tokenLoad = vi.fn(async () => 0);
    const dayLoad = vi.fn(async () => 0);
    for (let i = 0; i < 3; i += 1) {
      const hold = await ledger.admit([account({ key: 'token:t', scope: 'token:t', keepIdle: false, loadSpent: tokenLoad }), account({ loadSpent: dayLoad })], 0.1);
      hold.release();
    }
    expect(tokenLoad).toHaveBeenCalledTimes(3);
    expect(dayLoad).toHaveBeenCalledTimes(1);
    // A new day replaces the idle old one.
    await ledger.admit([account({ key: 'daily:a:2026-01-02', loadSpent: dayLoad })], 0.1);
    expect(dayLoad).toHaveBeenCalledTimes(2);
  });

  it('refuses admission when the stored spend cannot be read, and reads it again next time', async () => {
    const ledger = createBudgetLedger();
    const load = vi.fn().mockRejectedValueOnce(new Error('db down')).mockResolvedValue(0);
    await expect(ledger.admit([account({ loadSpent: load })], 0.1)).rejects.toThrow('db down');
    await new Promise((resolve) => setImmediate(resolve));
    await expect(ledger.admit([account({ loadSpent: load })], 0.1)).resolves.toBeDefined();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
