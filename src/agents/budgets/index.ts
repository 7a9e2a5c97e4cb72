export {
  createBudgetLedger,
  toNanos,
  type BudgetAccount,
  type BudgetHold,
  type BudgetLedger,
} from './budget-ledger.js';
export { createBudgetQueries, type BudgetLimit, type BudgetQueries } from './budget.store.js';
export {
  createRunBudgets,
  type BudgetState,
  type RunBudget,
  type RunBudgetRequest,
  type RunBudgets,
  type TokenBudget,
} from './run-budget.js';
export { createRunSpendQueries, type RunSpendQueries } from './run-spend.store.js';
