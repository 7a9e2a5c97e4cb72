import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { formatCount, formatUsd } from '../format';
import { QueryView } from '../states';
import type { Budget } from '../types';

export function BudgetsPage() {
  const budgets = useQuery({
    queryKey: ['budgets'],
    queryFn: () => api<Budget[]>('/api/v1/admin/budgets'),
    refetchInterval: 5000,
  });
  return (
    <>
      <h1>Budgets and limits</h1>
      <QueryView
        query={budgets}
        what="budgets"
        empty="No budgets: no agent has a daily budget and no token with a spending cap has been used."
      >
        {(data) => (
          <div className="table-wrap">
            <table aria-label="Budgets">
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col">Kind</th>
                  <th scope="col" className="num">
                    Limit
                  </th>
                  <th scope="col" className="num">
                    Spent
                  </th>
                  <th scope="col" className="num">
                    Reserved
                  </th>
                  <th scope="col" className="num">
                    Remaining
                  </th>
                  <th scope="col" className="num">
                    Runs holding
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.map((budget) => (
                  <tr key={budget.account}>
                    <td>{budget.subject}</td>
                    <td>{budget.kind === 'agent_daily' ? 'agent, daily' : 'access token'}</td>
                    <td className="num">{formatUsd(budget.limit_usd)}</td>
                    <td className="num">{formatUsd(budget.spent_usd)}</td>
                    <td className="num">{formatUsd(budget.reserved_usd)}</td>
                    <td className="num">{formatUsd(budget.remaining_usd)}</td>
                    <td className="num">{formatCount(budget.runs_holding, 'runs')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </>
  );
}
