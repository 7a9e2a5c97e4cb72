import { queryOptions } from '@tanstack/react-query';
import { api, query } from './client';
import type {
  AgentDetail,
  AgentSummary,
  AutopilotStatus,
  Budget,
  CostReport,
  Delivery,
  DeliveryStatus,
  MissionDetail,
  MissionSummary,
  ModelComparison,
  RiskReport,
  RunDetail,
  RunItem,
  RunQuery,
  RunSeries,
  Session,
  SystemStatus,
  TokenView,
  TriggerView,
  UsageReport,
} from './types';

/*
 * Every query of the dashboard: its key and how it is read, built in one place, so two pages asking for the
 * same data share one cache entry and one URL. Keys nest (`['runs', 'list', filters]` under `['runs', 'list']`
 * under `['runs']`) so that one call invalidates a family: `runQueries.lists()` refreshes every runs table and
 * leaves each run's detail alone.
 */

export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: () => api<Session>('/api/v1/ui/session'),
});

/** The runs table's filters; `within_ms` becomes `since` at each read, so "last hour" moves with the refreshes. */
export type RunFilters = Pick<RunQuery, 'agent_name' | 'status' | 'source' | 'limit' | 'offset'> & {
  within_ms?: number;
};

export const runQueries = {
  all: () => ['runs'] as const,
  lists: () => [...runQueries.all(), 'list'] as const,
  list: (filters: RunFilters) =>
    queryOptions({
      queryKey: [...runQueries.lists(), filters] as const,
      queryFn: () => {
        const { within_ms, ...rest } = filters;
        const since = within_ms ? new Date(Date.now() - within_ms).toISOString() : undefined;
        return api<RunItem[]>(`/api/v1/admin/runs${query({ ...rest, since } satisfies RunQuery)}`);
      },
    }),
  detail: (runId: string) =>
    queryOptions({
      queryKey: [...runQueries.all(), 'detail', runId] as const,
      queryFn: () => api<RunDetail>(`/api/v1/admin/runs/${encodeURIComponent(runId)}`),
    }),
  timeseries: (bucket: 'hour' | 'day') =>
    queryOptions({
      queryKey: [...runQueries.all(), 'timeseries', bucket] as const,
      queryFn: () => api<RunSeries>(`/api/v1/admin/runs/timeseries${query({ bucket })}`),
    }),
};

// Every page lists all agents (500 is the API's most): one key, one URL.
export const agentQueries = {
  all: () => ['agents'] as const,
  list: () =>
    queryOptions({
      queryKey: [...agentQueries.all(), 'list'] as const,
      queryFn: () => api<AgentSummary[]>('/api/v1/admin/agents?limit=500'),
    }),
  detail: (name: string) =>
    queryOptions({
      queryKey: [...agentQueries.all(), 'detail', name] as const,
      queryFn: () => api<AgentDetail>(`/api/v1/admin/agents/${encodeURIComponent(name)}`),
    }),
};

export const statusQuery = queryOptions({
  queryKey: ['status'],
  queryFn: () => api<SystemStatus>('/api/v1/admin/status'),
});

export const budgetQuery = queryOptions({
  queryKey: ['budgets'],
  queryFn: () => api<Budget[]>('/api/v1/admin/budgets'),
});

export interface AnalyticsWindow {
  since: string;
  until?: string;
}

/** One day (or any window) of the analytics API's totals. */
export interface AnalyticsTotals {
  window: AnalyticsWindow;
  costs: CostReport;
  usage: UsageReport;
  risks: RiskReport;
}

export const analyticsQueries = {
  all: () => ['analytics'] as const,
  /** The analytics API reports totals for a window: one key holds the totals of several windows (e.g. each day). */
  totals: (windows: AnalyticsWindow[]) =>
    queryOptions({
      queryKey: [...analyticsQueries.all(), 'totals', windows] as const,
      queryFn: () => Promise.all(windows.map(readTotals)),
    }),
  models: () =>
    queryOptions({
      queryKey: [...analyticsQueries.all(), 'models'] as const,
      queryFn: () => api<ModelComparison[]>('/analytics/models'),
    }),
};

async function readTotals(window: AnalyticsWindow): Promise<AnalyticsTotals> {
  const search = query({ ...window });
  const [costs, usage, risks] = await Promise.all([
    api<CostReport>(`/analytics/costs${search}`),
    api<UsageReport>(`/analytics/usage${search}`),
    api<RiskReport>(`/analytics/risks${search}`),
  ]);
  return { window, costs, usage, risks };
}

export const tokenQueries = {
  all: () => ['tokens'] as const,
  list: () =>
    queryOptions({
      queryKey: [...tokenQueries.all(), 'list'] as const,
      queryFn: () => api<TokenView[]>('/gateway/tokens?limit=500'),
    }),
};

export const triggerQueries = {
  all: () => ['triggers'] as const,
  list: () =>
    queryOptions({
      queryKey: [...triggerQueries.all(), 'list'] as const,
      queryFn: () => api<TriggerView[]>('/api/v1/admin/triggers?limit=500'),
    }),
  deliveries: () => [...triggerQueries.all(), 'deliveries'] as const,
  deliveryList: (status: DeliveryStatus | '') =>
    queryOptions({
      queryKey: [...triggerQueries.deliveries(), status] as const,
      queryFn: () => api<Delivery[]>(`/api/v1/admin/triggers/deliveries${query({ status, limit: 50 })}`),
    }),
};

export const autopilotQueries = {
  all: () => ['autopilot'] as const,
  status: () =>
    queryOptions({
      queryKey: [...autopilotQueries.all(), 'status'] as const,
      queryFn: () => api<AutopilotStatus>('/api/v1/autopilot/status'),
    }),
  missions: () => [...autopilotQueries.all(), 'missions'] as const,
  missionList: () =>
    queryOptions({
      queryKey: [...autopilotQueries.missions(), 'list'] as const,
      queryFn: () => api<MissionSummary[]>('/api/v1/autopilot/missions?limit=100'),
    }),
  mission: (missionId: string) =>
    queryOptions({
      queryKey: [...autopilotQueries.missions(), 'detail', missionId] as const,
      queryFn: () => api<MissionDetail>(missionPath(missionId)),
    }),
};

export function missionPath(missionId: string): string {
  return `/api/v1/autopilot/missions/${encodeURIComponent(missionId)}`;
}
