import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../api';
import { formatCount, StatusBadge, Time } from '../format';
import { QueryView } from '../states';
import type { AgentSummary } from '../types';

export function AgentsPage() {
  const agents = useQuery({
    queryKey: ['agents'],
    queryFn: () => api<AgentSummary[]>('/api/v1/admin/agents?limit=500'),
    refetchInterval: 5000,
  });
  return (
    <>
      <h1>Agents</h1>
      <QueryView query={agents} what="agents" empty="No agents are configured.">
        {(data) => (
          <div className="table-wrap">
            <table aria-label="Agents">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Model</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Runs
                  </th>
                  <th scope="col">Registered</th>
                </tr>
              </thead>
              <tbody>
                {data.map((agent) => (
                  <tr key={agent.name}>
                    <td>
                      <Link href={`/agents/${encodeURIComponent(agent.name)}`}>{agent.name}</Link>
                    </td>
                    <td className="mono">{agent.model}</td>
                    <td>
                      <StatusBadge status={agent.status} />
                    </td>
                    <td className="num">{formatCount(agent.total_runs, 'runs')}</td>
                    <td>
                      <Time iso={agent.registered_at} />
                    </td>
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
