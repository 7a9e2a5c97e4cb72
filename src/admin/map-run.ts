import type { RunRecord, StepRecord } from '../agents/index.js';
import type { RunDetail, RunItem } from './runs.schema.js';

export function mapRunItem(run: RunRecord): RunItem {
  return {
    run_id: run.run_id,
    agent_name: run.agent_name,
    status: run.status,
    started_at: run.started_at,
    finished_at: run.finished_at,
    total_tokens: run.total_tokens,
    cost_usd: run.cost_usd,
    steps: run.steps,
    source: run.source,
    session_id: run.session_id,
    model: run.model,
    end_user: run.end_user ?? null,
  };
}

export function mapRunDetail(run: RunRecord, steps: StepRecord[]): RunDetail {
  return {
    ...mapRunItem(run),
    input_tokens: run.input_tokens,
    output_tokens: run.output_tokens,
    output: run.output,
    error: run.error_code ? { code: run.error_code, message: run.error_message ?? '' } : null,
    token_id: run.token_id,
    trace_id: run.trace_id ?? null,
    attempts: run.attempts,
    resumed_from_step: run.resumed_from_step,
    triggered_by: run.triggered_by ?? null,
    step_details: steps.map(({ run_id: _runId, prompt_log, ...step }) => ({ ...step, prompt_log: { ...prompt_log } })),
  };
}
