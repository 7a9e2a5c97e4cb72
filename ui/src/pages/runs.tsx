import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { agentQueries, runQueries, type RunItem, type RunQuery, type RunStatus } from '../api';
import { formatCount, formatTokens, formatUsd, StatusBadge, Time } from '../format';
import { useRunChanges } from '../run-changes';
import { DataTable, type Column } from '../data-table';
import { QueryView } from '../states';

const PAGE_SIZE = 25;
type RunSource = NonNullable<RunQuery['source']>;
// Written as records so that a status or source the API adds is a compile error here until it is listed.
const STATUSES = Object.keys({
  running: 0,
  paused: 0,
  input_required: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  interrupted: 0,
} satisfies Record<RunStatus, 0>) as RunStatus[];
const SOURCES = Object.keys({
  chat: 0,
  agui: 0,
  webhook: 0,
  poller: 0,
  listener: 0,
  a2a: 0,
  autopilot: 0,
  mcp: 0,
} satisfies Record<RunSource, 0>) as RunSource[];
const PERIODS: [string, string, number][] = [
  ['', 'Any time', 0],
  ['1h', 'Last hour', 3_600_000],
  ['24h', 'Last 24 hours', 86_400_000],
  ['7d', 'Last 7 days', 604_800_000],
];

export function RunsPage() {
  const [agent, setAgent] = useState('');
  const [status, setStatus] = useState<RunStatus | ''>('');
  const [source, setSource] = useState<RunSource | ''>('');
  const [period, setPeriod] = useState('');
  const [page, setPage] = useState(0);
  const agents = useQuery(agentQueries.list());
  // New runs and status changes arrive on the runs event stream, which refreshes this query.
  const { live } = useRunChanges();
  const span = PERIODS.find(([key]) => key === period)?.[2] ?? 0;
  const runs = useQuery({
    ...runQueries.list({
      agent_name: agent || undefined,
      status: status || undefined,
      source: source || undefined,
      within_ms: span || undefined,
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const reset =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(0);
    };
  return (
    <>
      <h1>Runs</h1>
      <p className="live-state" data-testid="live-state">
        {live ? '● Live: new runs and status changes appear as they happen' : 'Connecting to the runs stream…'}
      </p>
      <div className="filters" role="group" aria-label="Filters">
        <label>
          Agent
          <select value={agent} onChange={(event) => reset(setAgent)(event.target.value)}>
            <option value="">All agents</option>
            {(agents.data ?? []).map((item) => (
              <option key={item.name}>{item.name}</option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(event) => reset(setStatus)(event.target.value as RunStatus | '')}>
            <option value="">Any status</option>
            {STATUSES.map((item) => (
              <option key={item}>{item}</option>
            ))}
          </select>
        </label>
        <label>
          Source
          <select value={source} onChange={(event) => reset(setSource)(event.target.value as RunSource | '')}>
            <option value="">Any source</option>
            {SOURCES.map((item) => (
              <option key={item}>{item}</option>
            ))}
          </select>
        </label>
        <label>
          Started
          <select value={period} onChange={(event) => reset(setPeriod)(event.target.value)}>
            {PERIODS.map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryView query={runs} what="runs">
        {(data) => (data.length === 0 ? <p className="state empty">No runs match.</p> : <RunsTable runs={data} />)}
      </QueryView>
      <div className="actions">
        <button type="button" className="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
          Previous page
        </button>
        <span>Page {page + 1}</span>
        <button
          type="button"
          className="secondary"
          disabled={(runs.data?.length ?? 0) < PAGE_SIZE}
          onClick={() => setPage(page + 1)}
        >
          Next page
        </button>
      </div>
    </>
  );
}

const COLUMNS: Column<RunItem>[] = [
  {
    header: 'Run',
    cell: (run) => (
      <Link href={`/runs/${run.run_id}`} className="mono">
        {run.run_id}
      </Link>
    ),
  },
  { header: 'Agent', cell: (run) => run.agent_name },
  { header: 'Status', cell: (run) => <StatusBadge status={run.status} /> },
  { header: 'Source', cell: (run) => run.source },
  { header: 'Started', cell: (run) => <Time iso={run.started_at} /> },
  { header: 'Steps', cell: (run) => formatCount(run.steps, 'steps'), numeric: true },
  { header: 'Tokens', cell: (run) => formatTokens(run.total_tokens), numeric: true },
  { header: 'Cost', cell: (run) => formatUsd(run.cost_usd), numeric: true },
];

export function RunsTable({ runs }: { runs: RunItem[] }) {
  return (
    <DataTable
      label="Runs"
      columns={COLUMNS}
      rows={runs}
      rowKey={(run) => run.run_id}
      rowProps={(run) => ({ 'data-run-id': run.run_id })}
    />
  );
}
