import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { analyticsQueries, type AnalyticsTotals, type RiskReport } from '../api';
import { TimeChart, type ChartSeries } from '../chart';
import { formatCount, formatTokens, formatUsd, startOfDay } from '../format';
import { QueryView } from '../states';

const DAYS = 7;

/** The analytics API reports totals for a window: one window per day of the last week gives the series. */
function lastDays() {
  return Array.from({ length: DAYS }, (_, index) => ({
    since: startOfDay(index - DAYS + 1).toISOString(),
    until: startOfDay(index - DAYS + 2).toISOString(),
  }));
}

function seriesBy(
  days: AnalyticsTotals[],
  pick: (day: AnalyticsTotals) => Record<string, number>,
  format: (value: number) => string,
) {
  const keys = [...new Set(days.flatMap((day) => Object.keys(pick(day))))].sort();
  return keys.map((key): ChartSeries => ({ label: key, values: days.map((day) => pick(day)[key] ?? 0), format }));
}

export function AnalyticsPage() {
  const days = useQuery({ ...analyticsQueries.totals(lastDays()), refetchInterval: 10_000 });
  const models = useQuery({ ...analyticsQueries.models(), refetchInterval: 10_000 });
  const charts = useMemo(() => {
    const data = days.data ?? [];
    const x = data.map((day) => Date.parse(day.window.since) / 1000);
    const risk = (label: string, pick: (report: RiskReport) => number): ChartSeries => ({
      label,
      values: data.map((day) => pick(day.risks)),
      format: (value) => formatCount(value, 'events'),
    });
    return {
      x,
      costByModel: seriesBy(data, (day) => day.costs.by_model, formatUsd),
      tokensByModel: seriesBy(data, (day) => day.usage.by_model, formatTokens),
      costByAgent: seriesBy(data, (day) => day.costs.by_agent, formatUsd),
      tokensByAgent: seriesBy(data, (day) => day.usage.by_agent, formatTokens),
      risks: [
        risk('PII', (report) => report.pii_events),
        risk('Hallucination flags', (report) => report.hallucination_flags),
        risk('Content filter', (report) => report.content_filter_events),
      ],
    };
  }, [days.data]);
  return (
    <>
      <h1>Analytics</h1>
      <QueryView query={days} what="analytics">
        {() =>
          charts.costByModel.length === 0 && charts.tokensByModel.length === 0 ? (
            <p className="state empty">No model calls in the last {DAYS} days.</p>
          ) : (
            <div className="grid-2">
              <TimeChart title="Cost per day by model" x={charts.x} series={charts.costByModel} bars />
              <TimeChart title="Tokens per day by model" x={charts.x} series={charts.tokensByModel} bars />
              <TimeChart title="Cost per day by agent" x={charts.x} series={charts.costByAgent} bars />
              <TimeChart title="Tokens per day by agent" x={charts.x} series={charts.tokensByAgent} bars />
            </div>
          )
        }
      </QueryView>
      <h2>Model comparison</h2>
      <QueryView query={models} what="models" empty="No model calls yet.">
        {(data) => (
          <div className="table-wrap">
            <table aria-label="Model comparison">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col" className="num">
                    Calls
                  </th>
                  <th scope="col" className="num">
                    Tokens
                  </th>
                  <th scope="col" className="num">
                    Cost
                  </th>
                  <th scope="col" className="num">
                    Cost per 1k tokens
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.map((model) => (
                  <tr key={model.model}>
                    <td className="mono">{model.model}</td>
                    <td className="num">{formatCount(model.request_count, 'calls')}</td>
                    <td className="num">{formatTokens(model.total_tokens)}</td>
                    <td className="num">{formatUsd(model.total_cost_usd)}</td>
                    <td className="num">{formatUsd(model.cost_per_1k_tokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      <h2>Guardrail events</h2>
      <QueryView query={days} what="guardrail events">
        {() => <TimeChart title="Guardrail risk events per day" x={charts.x} series={charts.risks} bars />}
      </QueryView>
    </>
  );
}
