import type { AnalyticsQueryStore } from './analytics-query.store.js';
import {
  mapAgentAnalytics,
  mapCostReport,
  mapModelComparisons,
  mapRiskReport,
  mapUsageReport,
  type AgentAnalytics,
  type CostReport,
  type ModelComparison,
  type RiskReport,
  type UsageReport,
} from './analytics-reports.js';
import type { AnalyticsFilter, UsageGroup } from './analytics.types.js';
import { planWindow } from './plan-window.js';

export interface AnalyticsServiceOptions {
  store: AnalyticsQueryStore;
  /**
   * Read whole days from the daily totals (default). False reads every usage record in the window:
   * the same numbers, slower; kept for the benchmark's before/after and as a check of the totals.
   */
  dailyTotals?: boolean;
}

/** The analytics API (spec 4.4): each report covers the usage records (or risk events) a filter selects. */
export interface AnalyticsService {
  costs(filter: AnalyticsFilter): Promise<CostReport>;
  usage(filter: AnalyticsFilter): Promise<UsageReport>;
  risks(filter: AnalyticsFilter): Promise<RiskReport>;
  models(filter: AnalyticsFilter): Promise<ModelComparison[]>;
  agents(filter: AnalyticsFilter): Promise<AgentAnalytics[]>;
}

export function createAnalyticsService({ store, dailyTotals = true }: AnalyticsServiceOptions): AnalyticsService {
  async function usageGroups(filter: AnalyticsFilter): Promise<UsageGroup[]> {
    // The daily totals are per agent and model only: a mission's calls are summed from the usage records.
    if (
      !dailyTotals ||
      filter.missionId !== undefined ||
      filter.missionStep !== undefined ||
      filter.endUser !== undefined
    ) {
      return store.sumUsageRecords(filter);
    }
    const plan = planWindow(filter.since, filter.until);
    const parts = await Promise.all([
      ...(plan.days ? [store.sumDailyTotals({ agentName: filter.agentName, ...plan.days })] : []),
      ...plan.edges.map((edge) => store.sumUsageRecords({ agentName: filter.agentName, ...edge })),
    ]);
    return mergeGroups(parts.flat());
  }

  return {
    costs: async (filter) => mapCostReport(await usageGroups(filter)),
    usage: async (filter) => mapUsageReport(await usageGroups(filter)),
    risks: async (filter) => mapRiskReport(await store.countRiskEvents(filter)),
    models: async (filter) => mapModelComparisons(await usageGroups(filter)),
    agents: async (filter) => mapAgentAnalytics(await usageGroups(filter)),
  };
}

/** The same agent and model may come from the daily totals and from an edge of the window. */
function mergeGroups(groups: UsageGroup[]): UsageGroup[] {
  const merged = new Map<string, UsageGroup>();
  for (const group of groups) {
    const key = `${group.agent_name}\u0000${group.model}`;
    const existing = merged.get(key);
    if (!existing) {
      merged.set(key, { ...group });
      continue;
    }
    existing.request_count += group.request_count;
    existing.input_tokens += group.input_tokens;
    existing.output_tokens += group.output_tokens;
    existing.cached_tokens += group.cached_tokens;
    existing.total_tokens += group.total_tokens;
    existing.cost_nanos += group.cost_nanos;
  }
  return [...merged.values()];
}
