import type { RiskCount, UsageGroup } from './analytics.types.js';
import { fromCostNanos, roundUsd } from './cost-nanos.js';

export interface CostReport {
  total_cost_usd: number;
  by_model: Record<string, number>;
  by_agent: Record<string, number>;
  record_count: number;
}

export interface UsageReport {
  total_tokens: number;
  by_model: Record<string, number>;
  by_agent: Record<string, number>;
  record_count: number;
}

export interface RiskReport {
  pii_events: number;
  hallucination_flags: number;
  content_filter_events: number;
  total_events: number;
}

export interface ModelComparison {
  model: string;
  total_cost_usd: number;
  total_tokens: number;
  request_count: number;
  cost_per_1k_tokens: number;
}

export interface AgentAnalytics {
  agent_name: string;
  total_cost_usd: number;
  total_tokens: number;
  request_count: number;
  models_used: string[];
}

/** Groups added up per key. Costs stay integer nano-dollars until the end, so totals are exact. */
interface Totals {
  cost_nanos: number;
  total_tokens: number;
  request_count: number;
  models: Set<string>;
}

export function mapCostReport(groups: UsageGroup[]): CostReport {
  return {
    total_cost_usd: fromCostNanos(sum(groups, 'cost_nanos')),
    by_model: toRecord(totalsBy(groups, 'model'), (totals) => fromCostNanos(totals.cost_nanos)),
    by_agent: toRecord(totalsBy(groups, 'agent_name'), (totals) => fromCostNanos(totals.cost_nanos)),
    record_count: sum(groups, 'request_count'),
  };
}

export function mapUsageReport(groups: UsageGroup[]): UsageReport {
  return {
    total_tokens: sum(groups, 'total_tokens'),
    by_model: toRecord(totalsBy(groups, 'model'), (totals) => totals.total_tokens),
    by_agent: toRecord(totalsBy(groups, 'agent_name'), (totals) => totals.total_tokens),
    record_count: sum(groups, 'request_count'),
  };
}

/** Most expensive first; ties by name, so the order is stable. */
export function mapModelComparisons(groups: UsageGroup[]): ModelComparison[] {
  return sortedEntries(totalsBy(groups, 'model')).map(([model, totals]) => ({
    model,
    total_cost_usd: fromCostNanos(totals.cost_nanos),
    total_tokens: totals.total_tokens,
    request_count: totals.request_count,
    cost_per_1k_tokens:
      totals.total_tokens > 0 ? roundUsd((fromCostNanos(totals.cost_nanos) * 1000) / totals.total_tokens) : 0,
  }));
}

export function mapAgentAnalytics(groups: UsageGroup[]): AgentAnalytics[] {
  return sortedEntries(totalsBy(groups, 'agent_name')).map(([agentName, totals]) => ({
    agent_name: agentName,
    total_cost_usd: fromCostNanos(totals.cost_nanos),
    total_tokens: totals.total_tokens,
    request_count: totals.request_count,
    models_used: [...totals.models].sort(),
  }));
}

export function mapRiskReport(counts: RiskCount[]): RiskReport {
  const of = (type: RiskCount['type']) =>
    counts.filter((count) => count.type === type).reduce((total, count) => total + count.count, 0);
  const report = {
    pii_events: of('pii'),
    hallucination_flags: of('hallucination'),
    content_filter_events: of('content_filter'),
  };
  return { ...report, total_events: report.pii_events + report.hallucination_flags + report.content_filter_events };
}

function sum(groups: UsageGroup[], field: 'cost_nanos' | 'total_tokens' | 'request_count'): number {
  return groups.reduce((total, group) => total + group[field], 0);
}

function totalsBy(groups: UsageGroup[], key: 'model' | 'agent_name'): Map<string, Totals> {
  const totals = new Map<string, Totals>();
  for (const group of groups) {
    let entry = totals.get(group[key]);
    if (!entry) {
      entry = { cost_nanos: 0, total_tokens: 0, request_count: 0, models: new Set() };
      totals.set(group[key], entry);
    }
    entry.cost_nanos += group.cost_nanos;
    entry.total_tokens += group.total_tokens;
    entry.request_count += group.request_count;
    entry.models.add(group.model);
  }
  return totals;
}

function toRecord(totals: Map<string, Totals>, value: (totals: Totals) => number): Record<string, number> {
  const names = [...totals.keys()].sort();
  return Object.fromEntries(names.map((name) => [name, value(totals.get(name)!)]));
}

function sortedEntries(totals: Map<string, Totals>): [string, Totals][] {
  return [...totals.entries()].sort(([a, x], [b, y]) => y.cost_nanos - x.cost_nanos || (a < b ? -1 : a > b ? 1 : 0));
}
