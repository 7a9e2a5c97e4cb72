import type { RunRecord } from '../../src/agents/index.js';

/** A stored run as the runtime writes it at the start (running, nothing counted yet), with `overrides` applied. */
export function runRecord(runId: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: runId,
    agent_name: 'helper',
    status: 'running',
    source: 'chat',
    session_id: null,
    model: 'up/m',
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: null,
    total_tokens: 0,
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: 0,
    steps: 0,
    output: null,
    error_code: null,
    error_message: null,
    token_id: null,
    attempts: 1,
    resumed_from_step: null,
    trace_id: null,
    triggered_by: null,
    end_user: null,
    ...overrides,
  };
}
