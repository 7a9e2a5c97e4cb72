import type { Selectable } from 'kysely';
import type { RunSource } from '../../bus/index.js';
import type { RiskEventsTable, UsageRecordsTable } from '../../db/index.js';

/** One model call as the runtime reports it (the analytics recorder's input): a usage row before its id and totals. */
export type ModelUsageRecord = Omit<
  Selectable<UsageRecordsTable>,
  'usage_id' | 'step_id' | 'source' | 'total_tokens' | 'priced' | 'estimated'
> & {
  step_id: string;
  source: RunSource;
  /** False when no price was known (cost_usd is 0 for that reason). */
  priced: boolean;
  /** True when the provider reported no usage and the tokens were counted locally. */
  estimated: boolean;
};

/** One guardrail hit in a run: a risk event row before its id. */
export type RiskEventRecord = Omit<Selectable<RiskEventsTable>, 'event_id' | 'run_id'> & { run_id: string };

/**
 * Where usage and guardrail hits go (app.ts: the analytics recorder). agents/ may not import analytics/,
 * so it declares what it needs. Each promise resolves once the record is committed.
 */
export interface UsageSink {
  record(usage: ModelUsageRecord): Promise<void>;
  recordRisk(event: RiskEventRecord): Promise<void>;
}
