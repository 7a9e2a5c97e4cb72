import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import type { RiskEventInput, UsageRecordInput } from '../../src/analytics/index.js';
import type { TestDatabase } from '../support/databases.js';

/** Opens a migrated database (the analytics tables come with the migrations). */
export function openAnalyticsDatabase(database: TestDatabase): Promise<DatabaseHandle> {
  return createDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
}

export function usage(overrides: Partial<UsageRecordInput> = {}): UsageRecordInput {
  return {
    run_id: 'run_1',
    agent_name: 'helper',
    source: 'chat',
    model: 'upstream/a',
    input_tokens: 10,
    output_tokens: 5,
    cost_usd: 0.001,
    latency_ms: 12,
    status: 'ok',
    priced: true,
    estimated: false,
    ...overrides,
  };
}

/**
 * A known data set over four days. Costs include 0.1 + 0.2, which a floating-point sum gets wrong,
 * and records exactly at midnight and a millisecond before it, where whole days meet window edges.
 */
export const USAGE_SET: UsageRecordInput[] = [
  usage({
    run_id: 'run_1',
    created_at: '2026-03-01T10:00:00.000Z',
    agent_name: 'helper',
    model: 'upstream/a',
    input_tokens: 100,
    output_tokens: 50,
    cost_usd: 0.0015,
  }),
  usage({
    run_id: 'run_1',
    created_at: '2026-03-01T23:59:59.999Z',
    agent_name: 'helper',
    model: 'upstream/b',
    input_tokens: 200,
    output_tokens: 100,
    cost_usd: 0.003,
  }),
  usage({
    run_id: 'run_2',
    created_at: '2026-03-02T00:00:00.000Z',
    agent_name: 'other',
    model: 'upstream/a',
    input_tokens: 10,
    output_tokens: 5,
    cost_usd: 0.000123456,
  }),
  usage({
    run_id: 'run_2',
    created_at: '2026-03-02T12:00:00.000Z',
    agent_name: 'other',
    model: 'openai/gpt-4o',
    input_tokens: 1000,
    output_tokens: 500,
    cached_tokens: 400,
    cost_usd: 0.0125,
  }),
  usage({
    run_id: 'run_3',
    created_at: '2026-03-03T08:30:00.000Z',
    agent_name: 'helper',
    model: 'upstream/a',
    input_tokens: 300,
    output_tokens: 200,
    cost_usd: 0.1,
    source: 'agui',
    ttft_ms: 40,
  }),
  usage({
    run_id: 'run_3',
    created_at: '2026-03-03T08:30:00.000Z',
    agent_name: 'helper',
    model: 'upstream/a',
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: 0,
    status: 'error',
  }),
  usage({
    run_id: 'run_4',
    created_at: '2026-03-05T00:00:00.000Z',
    agent_name: 'helper',
    model: 'openai/gpt-4o',
    input_tokens: 1,
    output_tokens: 2,
    cost_usd: 0.2,
    estimated: true,
  }),
];

export const RISK_SET: RiskEventInput[] = [
  {
    run_id: 'run_1',
    agent_name: 'helper',
    type: 'pii',
    entity: 'email',
    action: 'redact',
    created_at: '2026-03-01T10:00:00.000Z',
  },
  {
    run_id: 'run_1',
    agent_name: 'helper',
    type: 'pii',
    entity: 'phone',
    action: 'redact',
    created_at: '2026-03-01T10:00:01.000Z',
  },
  {
    run_id: 'run_2',
    agent_name: 'other',
    type: 'pii',
    entity: 'iban',
    action: 'block',
    created_at: '2026-03-02T00:00:00.000Z',
  },
  {
    run_id: 'run_3',
    agent_name: 'helper',
    type: 'content_filter',
    entity: 'secret',
    action: 'warn',
    created_at: '2026-03-03T08:30:00.000Z',
  },
  {
    run_id: null,
    agent_name: 'helper',
    type: 'content_filter',
    entity: '/drop\\s+table/',
    action: 'block',
    created_at: '2026-03-04T00:00:00.000Z',
  },
  {
    run_id: 'run_2',
    agent_name: 'other',
    type: 'hallucination',
    entity: 'ungrounded_answer',
    action: 'warn',
    created_at: '2026-03-02T12:00:00.000Z',
  },
];
