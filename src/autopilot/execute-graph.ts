import { AppError, BudgetExceededError } from '../errors.js';
import type { Blueprint } from './blueprint.schema.js';
import type { ExecutionStore } from './execution.store.js';
import type { MissionRecord, StepResult } from './mission.types.js';
import { renderTemplate, stepOutputPlaceholder } from './render-template.js';
import { runNode, type NodeRunDeps } from './run-node.js';

/** The learning loop as execution sees it: successful steps become samples; a fine-tuned model may take over. */
export interface StepLearning {
  capture(blueprint: Blueprint, step: StepResult): Promise<void>;
  modelFor(blueprint: Blueprint): Promise<string | undefined>;
}

export interface GraphRunDeps extends NodeRunDeps {
  executions: ExecutionStore;
  learning?: StepLearning;
}

export interface GraphOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  costUsd: number;
  error?: AppError;
}

/**
 * Runs the mission's nodes in graph order, each as an agent run whose prompt is rendered from the slots
 * and the outputs of earlier nodes. Stops at the first node that does not complete, and when the spend
 * reaches the mission's budget (`budget_usd` in slots or blueprint): between nodes here, and inside a
 * node through the run's own limit (max_cost_per_run_usd = what is left), checked before each model call.
 */
export async function executeGraph(deps: GraphRunDeps, mission: MissionRecord, blueprint: Blueprint, executionId: string, signal: AbortSignal): Promise<GraphOutcome> {
  const budget = mission.budget_usd;
  const variables: Record<string, unknown> = { ...mission.slots, goal: mission.goal ?? '', budget_usd: budget ?? '' };
  let costUsd = 0;
  // Read once per execution, so every step of one execution is served by the same model.
  const modelOverride = await deps.learning?.modelFor(blueprint);
  for (const [stepIndex, nodeId] of blueprint.order.entries()) {
    if (signal.aborted) return { status: 'cancelled', costUsd };
    if (budget !== null && costUsd >= budget) return { status: 'failed', costUsd, error: budgetError(budget, costUsd, nodeId) };
    const node = blueprint.agent_graph.nodes.find((candidate) => candidate.id === nodeId)!;
    const prompt = renderTemplate(node.prompt, variables);
    const remainingBudgetUsd = budget === null ? undefined : budget - costUsd;
    const { step, error } = await runNode(deps, { missionId: mission.mission_id, executionId, stepIndex, blueprint, node, prompt, signal, remainingBudgetUsd, modelOverride });
    await deps.executions.insertStep(step);
    if (!error) await deps.learning?.capture(blueprint, step);
    costUsd += step.telemetry.cost_usd;
    if (error) return { status: step.status === 'cancelled' || signal.aborted ? 'cancelled' : 'failed', costUsd, error };
    variables[stepOutputPlaceholder(nodeId)] = step.output;
    if (budget !== null && costUsd > budget) return { status: 'failed', costUsd, error: budgetError(budget, costUsd, nodeId) };
  }
  return { status: 'completed', costUsd };
}

function budgetError(budget: number, spent: number, nodeId: string): AppError {
  return new BudgetExceededError(`The mission spent $${spent.toFixed(4)} of its $${budget} budget (budget_usd) by node "${nodeId}"`);
}
