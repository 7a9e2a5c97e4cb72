import { createId, isoNow } from '../ids.js';
import type { RiskEventInput, RiskRow, UsageRecordInput, UsageRow } from './analytics.types.js';
import { roundUsd } from './cost-nanos.js';

/**
 * The row stored for a usage report. Counts are clamped to non-negative integers here because one
 * NaN would fail the NOT NULL insert of the whole batch it shares with other callers' records.
 */
export function convertToUsageRow(input: UsageRecordInput): UsageRow {
  const inputTokens = count(input.input_tokens);
  const outputTokens = count(input.output_tokens);
  return {
    usage_id: input.usage_id ?? createId('use'),
    run_id: input.run_id,
    step_id: input.step_id ?? null,
    agent_name: input.agent_name,
    session_id: input.session_id ?? null,
    mission_id: input.mission_id ?? null,
    mission_step: input.mission_step ?? null,
    end_user: input.end_user ?? null,
    source: input.source,
    provider: input.provider ?? providerOf(input.model),
    model: input.model,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cached_tokens: Math.min(count(input.cached_tokens), inputTokens),
    total_tokens: input.total_tokens === undefined ? inputTokens + outputTokens : count(input.total_tokens),
    cost_usd: Math.max(0, roundUsd(input.cost_usd)),
    latency_ms: count(input.latency_ms),
    ttft_ms: input.ttft_ms === undefined || input.ttft_ms === null ? null : count(input.ttft_ms),
    status: input.status,
    priced: input.priced ? 1 : 0,
    estimated: input.estimated ? 1 : 0,
    created_at: canonicalTime(input.created_at),
  };
}

export function convertToRiskRow(input: RiskEventInput): RiskRow {
  return {
    event_id: input.event_id ?? createId('evt'),
    run_id: input.run_id,
    agent_name: input.agent_name,
    mission_id: input.mission_id ?? null,
    mission_step: input.mission_step ?? null,
    end_user: input.end_user ?? null,
    type: input.type,
    entity: input.entity,
    action: input.action,
    created_at: canonicalTime(input.created_at),
  };
}

function count(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

function providerOf(model: string): string {
  const slash = model.indexOf('/');
  return slash < 0 ? '' : model.slice(0, slash);
}

/** Windows compare times as strings, which is only correct when every stored time has this one format. */
function canonicalTime(value: string | undefined): string {
  if (value === undefined) return isoNow();
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new TypeError(`created_at is not a valid timestamp: ${value}`);
  return time.toISOString();
}
