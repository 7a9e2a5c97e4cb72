import type { FailureClass } from './classify-failure.js';
import type { ExecutionRecord } from '../missions/mission.types.js';

export type HealingAction =
  | 'retry_with_backoff'
  | 'rotate_provider'
  | 'raise_budget'
  | 'fix_credentials'
  | 'fix_slot'
  | 'review_tool'
  | 'alert_operator';
export type HealingSeverity = 'info' | 'warning' | 'critical';

/** What applying a recommendation does; every one re-runs the mission from its failed step. */
export type ApplyAction = 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';

export interface HealingApply {
  action: ApplyAction;
  /** Filled in where the failure tells; null where the operator must give a value when applying. */
  params: Record<string, unknown>;
  /** Safe to apply without a person: only a retry of a transient upstream error (autopilot.auto_heal). */
  safe: boolean;
}

/** A recommended action with, where it can be applied, the machine-readable action that applies it. */
export interface HealingRecommendation {
  /** `<reason>.<action>`: names the recommendation in POST /missions/{id}/healing/{recommendation_id}/apply. */
  id: string;
  apply: HealingApply | null;
  action: HealingAction;
  /** A stable lower_snake reason: the failure class or the signal that fired. */
  reason: string;
  severity: HealingSeverity;
  /** One sentence for a person. */
  detail: string;
}

export interface HealingInput {
  /** This mission's executions, newest first. */
  executions: ExecutionRecord[];
  /** The project's executions of the same blueprint (this mission's included), newest first, up to 20. */
  blueprintHistory: ExecutionRecord[];
  estimatedCostUsd?: number;
  estimatedDurationSeconds?: number;
  /** The step the latest execution failed at, with the node's tools. */
  failedStep?: { node_id: string; tools: string[] };
  budgetUsd?: number | null;
}

type Rule = Omit<HealingRecommendation, 'detail' | 'id' | 'apply'> & {
  detail: (execution: ExecutionRecord) => string;
  apply?: (input: HealingInput, execution: ExecutionRecord) => HealingApply | null;
};

const nodeOf = (input: HealingInput) => input.failedStep?.node_id ?? null;

const BY_CLASS: Record<Exclude<FailureClass, 'cancelled'>, Rule[]> = {
  upstream: [
    {
      action: 'retry_with_backoff',
      reason: 'upstream',
      severity: 'warning',
      detail: (e) => `The model provider failed or timed out (${e.error_code}); run the mission again after a pause.`,
      apply: (input) => ({ action: 'retry_step', params: { node_id: nodeOf(input) }, safe: true }),
    },
    {
      action: 'rotate_provider',
      reason: 'upstream',
      severity: 'info',
      detail: () => 'If the provider keeps failing, point the blueprint nodes or autopilot.model at another provider.',
      apply: (input) => ({ action: 'retry_with_model', params: { node_id: nodeOf(input), model: null }, safe: false }),
    },
  ],
  rate_limited: [
    {
      action: 'retry_with_backoff',
      reason: 'rate_limited',
      severity: 'warning',
      detail: (e) => `A rate limit or quota was hit (${e.error_code}); wait for it to reset before running again.`,
      apply: (input) => ({ action: 'retry_step', params: { node_id: nodeOf(input) }, safe: false }),
    },
    {
      action: 'rotate_provider',
      reason: 'rate_limited',
      severity: 'info',
      detail: () => 'Spread the load to another provider or model with its own quota.',
      apply: (input) => ({ action: 'retry_with_model', params: { node_id: nodeOf(input), model: null }, safe: false }),
    },
  ],
  auth: [
    {
      action: 'fix_credentials',
      reason: 'auth',
      severity: 'critical',
      detail: (e) =>
        `The provider refused the credentials (${e.error_message ?? e.error_code}); fix the API key in the providers section.`,
    },
  ],
  budget_exceeded: [
    {
      action: 'raise_budget',
      reason: 'budget_exceeded',
      severity: 'warning',
      detail: (e) => `${e.error_message ?? 'The mission ran out of budget.'} Raise budget_usd or shorten the graph.`,
      apply: (input, e) => ({
        action: 'raise_budget',
        params: { budget_usd: Math.max(2 * (input.budgetUsd ?? 0), 2 * e.cost_usd) || null },
        safe: false,
      }),
    },
  ],
  tool_error: [
    {
      action: 'review_tool',
      reason: 'tool_error',
      severity: 'warning',
      detail: (e) => `A tool failed or was misused (${e.error_code}): ${e.error_message ?? ''}`.trim(),
      apply: (input) => ({
        action: 'disable_tool',
        params: {
          node_id: nodeOf(input),
          tool: input.failedStep?.tools.length === 1 ? input.failedStep.tools[0] : null,
        },
        safe: false,
      }),
    },
  ],
  guardrail_block: [
    {
      action: 'alert_operator',
      reason: 'guardrail_block',
      severity: 'warning',
      detail: (e) => `A guardrail blocked the output (${e.error_code}); review the prompt or the guardrail settings.`,
    },
  ],
  invalid_input: [
    {
      action: 'fix_slot',
      reason: 'invalid_input',
      severity: 'critical',
      detail: (e) =>
        `A slot or the blueprint is invalid: ${e.error_message ?? e.error_code}. Correct the slot and run again.`,
      apply: () => ({ action: 'edit_slot', params: { slot: null, value: null }, safe: false }),
    },
  ],
  internal: [
    {
      action: 'alert_operator',
      reason: 'internal',
      severity: 'critical',
      detail: (e) => `The execution failed unexpectedly (${e.error_code}): ${e.error_message ?? ''}`.trim(),
    },
  ],
};

/** Recommendations from the latest failure's class and from signals across executions (docs/decisions/0049-autopilot-missions.md). */
export function recommendHealing(input: HealingInput): HealingRecommendation[] {
  const latest = input.executions[0];
  const found: HealingRecommendation[] = [];
  if (latest?.status === 'failed') {
    const rules = BY_CLASS[(latest.failure_class ?? 'internal') as keyof typeof BY_CLASS] ?? BY_CLASS.internal;
    found.push(
      ...rules.map(({ apply, ...rule }) => ({
        ...rule,
        id: `${rule.reason}.${rule.action}`,
        apply: apply?.(input, latest) ?? null,
        detail: rule.detail(latest),
      })),
    );
  }
  found.push(...signals(input, latest).map((item) => ({ ...item, id: `${item.reason}.${item.action}`, apply: null })));
  const seen = new Set<string>();
  return found.filter(
    (item) => !seen.has(`${item.action}:${item.reason}`) && seen.add(`${item.action}:${item.reason}`),
  );
}

function signals(
  input: HealingInput,
  latest: ExecutionRecord | undefined,
): Omit<HealingRecommendation, 'id' | 'apply'>[] {
  const found: Omit<HealingRecommendation, 'id' | 'apply'>[] = [];
  const finished = input.blueprintHistory
    .filter((execution) => execution.status === 'completed' || execution.status === 'failed')
    .slice(0, 20);
  if (finished.length >= 3 && finished.slice(0, 3).every((execution) => execution.status === 'failed')) {
    found.push({
      action: 'alert_operator',
      reason: 'consecutive_failures',
      severity: 'critical',
      detail: `The last 3 executions of blueprint ${finished[0].blueprint_id} failed.`,
    });
  }
  const successRate = finished.filter((execution) => execution.status === 'completed').length / finished.length;
  // Five executions at least, so that one early failure does not read as a trend.
  if (finished.length >= 5 && successRate < 0.8) {
    found.push({
      action: 'alert_operator',
      reason: 'low_success_rate',
      severity: 'warning',
      detail: `Only ${Math.round(successRate * 100)}% of the last ${finished.length} executions of this blueprint succeeded (threshold 80%).`,
    });
  }
  if (!latest || latest.status === 'running') return found;
  const cost =
    input.estimatedCostUsd ?? median(finished.filter((e) => e.status === 'completed').map((e) => e.cost_usd));
  if (cost !== undefined && cost > 0 && latest.cost_usd > 2 * cost) {
    found.push({
      action: 'raise_budget',
      reason: 'cost_above_estimate',
      severity: 'warning',
      detail: `The latest execution cost $${latest.cost_usd.toFixed(4)}, more than twice the estimate of $${cost.toFixed(4)}; check the prompts or raise budget_usd knowingly.`,
    });
  }
  const durationMs =
    input.estimatedDurationSeconds !== undefined
      ? input.estimatedDurationSeconds * 1000
      : median(finished.filter((e) => e.status === 'completed').map((e) => e.duration_ms ?? 0));
  if (durationMs !== undefined && durationMs > 0 && (latest.duration_ms ?? 0) > 3 * durationMs) {
    found.push({
      action: 'rotate_provider',
      reason: 'duration_above_estimate',
      severity: 'info',
      detail: `The latest execution took ${latest.duration_ms} ms, more than three times the estimate of ${Math.round(durationMs)} ms; a faster model or provider may help.`,
    });
  }
  return found;
}

// Without an estimate in the blueprint, the median of at least three completed executions stands in.
function median(values: number[]): number | undefined {
  if (values.length < 3) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
