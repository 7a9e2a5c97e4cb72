import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { agentQueries, type AgentSummary } from '../api';
import { formatCount, StatusBadge, Time } from '../format';
import { DataTable, type Column } from '../data-table';
import { QueryView } from '../states';

const COLUMNS: Column<AgentSummary>[] = [
  { header: 'Name', cell: (agent) => <Link href={`/agents/${encodeURIComponent(agent.name)}`}>{agent.name}</Link> },
  { header: 'Model', cell: (agent) => agent.model, className: 'mono' },
  { header: 'Status', cell: (agent) => <StatusBadge status={agent.status} /> },
  { header: 'Runs', cell: (agent) => formatCount(agent.total_runs, 'runs'), numeric: true },
  { header: 'Registered', cell: (agent) => <Time iso={agent.registered_at} /> },
];

export function AgentsPage() {
  const agents = useQuery({ ...agentQueries.list(), refetchInterval: 5000 });
  return (
    <>
      <h1>Agents</h1>
      <QueryView query={agents} what="agents" empty="No agents are configured.">
        {(data) => <DataTable label="Agents" columns={COLUMNS} rows={data} rowKey={(agent) => agent.name} />}
      </QueryView>
    </>
  );
}
