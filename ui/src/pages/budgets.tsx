import { useQuery } from '@tanstack/react-query';
import { budgetQuery, type Budget } from '../api';
import { formatCount, formatUsd } from '../format';
import { DataTable, type Column } from '../data-table';
import { QueryView } from '../states';

const COLUMNS: Column<Budget>[] = [
  { header: 'Account', cell: (budget) => budget.subject },
  { header: 'Kind', cell: (budget) => (budget.kind === 'agent_daily' ? 'agent, daily' : 'access token') },
  { header: 'Limit', cell: (budget) => formatUsd(budget.limit_usd), numeric: true },
  { header: 'Spent', cell: (budget) => formatUsd(budget.spent_usd), numeric: true },
  { header: 'Reserved', cell: (budget) => formatUsd(budget.reserved_usd), numeric: true },
  { header: 'Remaining', cell: (budget) => formatUsd(budget.remaining_usd), numeric: true },
  { header: 'Runs holding', cell: (budget) => formatCount(budget.runs_holding, 'runs'), numeric: true },
];

export function BudgetsPage() {
  const budgets = useQuery({ ...budgetQuery, refetchInterval: 5000 });
  return (
    <>
      <h1>Budgets and limits</h1>
      <QueryView
        query={budgets}
        what="budgets"
        empty="No budgets: no agent has a daily budget and no token with a spending cap has been used."
      >
        {(data) => <DataTable label="Budgets" columns={COLUMNS} rows={data} rowKey={(budget) => budget.account} />}
      </QueryView>
    </>
  );
}
