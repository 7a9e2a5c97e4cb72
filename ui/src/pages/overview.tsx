import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { agentQueries, analyticsQueries, runQueries, statusQuery } from '../api';
import { TimeChart } from '../chart';
import { formatCount, formatDuration, formatTokens, formatUsd, startOfDay, StatusBadge, Time } from '../format';
import { QueryView } from '../states';

const REFRESH_MS = 5000;

export function OverviewPage() {
  const status = useQuery({ ...statusQuery, refetchInterval: REFRESH_MS });
  const agents = useQuery(agentQueries.list());
  return (
    <>
      <h1>Overview</h1>
      <QueryView query={status} what="health">
        {(data) => (
          <section aria-label="Health" className="cards">
            <div className="card">
              <div className="label">Health</div>
              <div className="value">
                <StatusBadge status={data.status} />
              </div>
              {data.reasons.length > 0 && <div className="error-text">{data.reasons.join('; ')}</div>}
            </div>
            <div className="card">
              <div className="label">Agents</div>
              <div className="value">{formatCount(data.agents, 'agents')}</div>
            </div>
            <div className="card">
              <div className="label">Active runs</div>
              <div className="value">{formatCount(data.active_runs, 'runs')}</div>
            </div>
            <div className="card">
              <div className="label">Active sessions</div>
              <div className="value">{formatCount(data.active_sessions, 'sessions')}</div>
            </div>
            <div className="card">
              <div className="label">Uptime</div>
              <div className="value">{formatDuration(data.uptime_seconds)}</div>
            </div>
          </section>
        )}
      </QueryView>
      <TodayVsYesterday />
      <h2>Last 24 hours</h2>
      <Last24Hours />
      <h2>Agents</h2>
      <QueryView query={agents} what="agents" empty="No agents are configured.">
        {(data) => (
          <ul>
            {data.map((agent) => (
              <li key={agent.name}>
                <Link href={`/agents/${encodeURIComponent(agent.name)}`}>{agent.name}</Link> ({agent.model}){' '}
                <StatusBadge status={agent.status} /> {formatCount(agent.total_runs, 'runs')}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <h2>Newest failures</h2>
      <NewestFailures />
    </>
  );
}

function TodayVsYesterday() {
  const today = startOfDay().toISOString();
  const yesterday = startOfDay(-1).toISOString();
  const totals = useQuery({
    ...analyticsQueries.totals([{ since: today }, { since: yesterday, until: today }]),
    refetchInterval: REFRESH_MS,
  });
  return (
    <QueryView query={totals} what="cost and tokens">
      {([{ costs: costToday, usage: usageToday }, { costs: costYesterday, usage: usageYesterday }]) => (
        <section aria-label="Today versus yesterday" className="cards" style={{ marginTop: 12 }}>
          <div className="card">
            <div className="label">Cost today</div>
            <div className="value">{formatUsd(costToday.total_cost_usd)}</div>
            <div className="label">yesterday {formatUsd(costYesterday.total_cost_usd)}</div>
          </div>
          <div className="card">
            <div className="label">Tokens today</div>
            <div className="value">{formatTokens(usageToday.total_tokens)}</div>
            <div className="label">yesterday {formatTokens(usageYesterday.total_tokens)}</div>
          </div>
          <div className="card">
            <div className="label">Model calls today</div>
            <div className="value">{formatCount(costToday.record_count, 'calls')}</div>
            <div className="label">yesterday {formatCount(costYesterday.record_count, 'calls')}</div>
          </div>
        </section>
      )}
    </QueryView>
  );
}

/** Runs, cost and failures per hour over the last 24 hours, counted by the server over every run. */
function Last24Hours() {
  const series = useQuery({ ...runQueries.timeseries('hour'), refetchInterval: REFRESH_MS });
  const chart = useMemo(() => {
    const points = series.data?.points ?? [];
    return {
      x: points.map((point) => Date.parse(point.start) / 1000),
      series: [
        {
          label: 'Runs',
          values: points.map((point) => point.runs),
          format: (value: number) => formatCount(value, 'runs'),
        },
        { label: 'Cost', values: points.map((point) => point.cost_usd), format: formatUsd },
        {
          label: 'Failed runs',
          values: points.map((point) => point.failed),
          format: (value: number) => formatCount(value, 'failed'),
        },
      ],
    };
  }, [series.data]);
  return (
    <QueryView query={series} what="runs of the last 24 hours">
      {() => <TimeChart title="Runs, cost and failures per hour" x={chart.x} series={chart.series} dual />}
    </QueryView>
  );
}

function NewestFailures() {
  const failures = useQuery({ ...runQueries.list({ status: 'failed', limit: 5 }), refetchInterval: REFRESH_MS });
  return (
    <QueryView query={failures} what="failures" empty="No failed runs.">
      {(data) => (
        <ul>
          {data.map((run) => (
            <li key={run.run_id}>
              <Link href={`/runs/${run.run_id}`}>{run.run_id}</Link> {run.agent_name} <Time iso={run.started_at} />
            </li>
          ))}
        </ul>
      )}
    </QueryView>
  );
}
