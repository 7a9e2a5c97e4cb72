import { AppError, BudgetExceededError } from '../../errors.js';
import type { Blueprint, BlueprintNode } from '../blueprints/blueprint.schema.js';
import { chooseBranch } from './choose-branch.js';
import type { ExecutionStore } from './execution.store.js';
import type { MissionRecord, StepResult } from '../missions/mission.types.js';
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

/** The variables a prompt is rendered from: every declared slot (empty when unset), the goal and the budget. */
export function missionVariables(mission: MissionRecord, blueprint: Blueprint): Record<string, unknown> {
  const declared = Object.fromEntries(blueprint.slots.map((slot) => [slot.name, '']));
  return { ...declared, ...mission.slots, goal: mission.goal ?? '', budget_usd: mission.budget_usd ?? '' };
}

/**
 * Runs the mission's nodes in graph order, each as an agent run whose prompt is rendered from the slots
 * and the outputs of earlier nodes. A node runs when a plain edge from a node that ran, or the branch its
 * predecessor took, leads to it. Stops at the first node that does not complete, and when the spend
 * reaches the mission's budget (`budget_usd` in slots or blueprint): between nodes here, and inside a
 * node through the run's own limit (max_cost_per_run_usd = what is left), checked before each model call.
 */
export async function executeGraph(
  deps: GraphRunDeps,
  mission: MissionRecord,
  blueprint: Blueprint,
  executionId: string,
  signal: AbortSignal,
  prior: StepResult[] = [],
): Promise<GraphOutcome> {
  const budget = mission.budget_usd;
  const graph = blueprint.agent_graph;
  // Outputs of nodes that do not run (an untaken branch) render empty, never as raw {{…}}.
  const variables: Record<string, unknown> = {
    ...Object.fromEntries(blueprint.order.map((id) => [stepOutputPlaceholder(id), ''])),
    ...missionVariables(mission, blueprint),
  };
  const active = new Set<string>([graph.entry]);
  let costUsd = 0;
  let stepIndex = 0;
  // Read once per execution, so every step of one execution is served by the same model.
  const modelOverride = await deps.learning?.modelFor(blueprint);
  for (const nodeId of blueprint.order) {
    if (!active.has(nodeId)) continue;
    if (signal.aborted) return { status: 'cancelled', costUsd };
    if (budget !== null && costUsd >= budget)
      return { status: 'failed', costUsd, error: budgetError(budget, costUsd, nodeId) };
    const node = graph.nodes.find((candidate) => candidate.id === nodeId)!;
    const prompt = renderTemplate(node.prompt ?? '', variables, { missing: 'empty' });
    const remainingBudgetUsd = budget === null ? undefined : budget - costUsd;
    // A healing re-run keeps the steps that completed before the failure: copied, not run (and not curated) again.
    const kept = prior.find((step) => step.node_id === nodeId && step.status === 'completed');
    const { step, error } = kept
      ? { step: { ...kept, execution_id: executionId, step_index: stepIndex }, error: undefined }
      : node.kind === 'deterministic'
        ? deterministicStep(deps, executionId, stepIndex, node, prompt, inputsOf(graph, nodeId, variables))
        : await runNode(deps, {
            missionId: mission.mission_id,
            executionId,
            stepIndex,
            blueprint,
            node,
            prompt,
            signal,
            remainingBudgetUsd,
            modelOverride,
            traceparent: mission.traceparent,
          });
    stepIndex += 1;
    await deps.executions.insertStep(step);
    if (!error && !kept && node.kind === 'llm') await deps.learning?.capture(blueprint, step);
    if (!kept) costUsd += step.telemetry.cost_usd;
    if (error)
      return { status: step.status === 'cancelled' || signal.aborted ? 'cancelled' : 'failed', costUsd, error };
    variables[stepOutputPlaceholder(nodeId)] = step.output;
    for (const [from, to] of graph.edges) if (from === nodeId) active.add(to);
    const taken = chooseBranch(graph.branches[nodeId] ?? [], step.output);
    if (taken) active.add(taken.target);
    if (budget !== null && costUsd > budget)
      return { status: 'failed', costUsd, error: budgetError(budget, costUsd, nodeId) };
  }
  return { status: 'completed', costUsd };
}

function inputsOf(graph: Blueprint['agent_graph'], nodeId: string, variables: Record<string, unknown>): string {
  const from = [
    ...graph.edges.filter(([, to]) => to === nodeId).map(([source]) => source),
    ...Object.entries(graph.branches)
      .filter(([, list]) => list.some((branch) => branch.target === nodeId))
      .map(([source]) => source),
  ];
  return from
    .map((id) => variables[stepOutputPlaceholder(id)])
    .map((value) => (value == null ? '' : typeof value === 'string' ? value : JSON.stringify(value)))
    .filter(Boolean)
    .join('\n\n');
}

// A deterministic node calls no model: its output is its rendered template, or its inputs passed on.
function deterministicStep(
  deps: NodeRunDeps,
  executionId: string,
  stepIndex: number,
  node: BlueprintNode,
  prompt: string,
  inputs: string,
): { step: StepResult; error?: AppError } {
  const at = deps.now();
  const output = node.prompt ? prompt : inputs;
  return {
    step: {
      execution_id: executionId,
      step_index: stepIndex,
      node_id: node.id,
      run_id: null,
      status: 'completed',
      output,
      messages: [{ role: 'assistant', content: output }],
      telemetry: { cost_usd: 0, input_tokens: 0, output_tokens: 0, model_used: 'deterministic', latency_ms: 0 },
      error: null,
      started_at: at,
      finished_at: at,
    },
  };
}

function budgetError(budget: number, spent: number, nodeId: string): AppError {
  return new BudgetExceededError(
    `The mission spent $${spent.toFixed(4)} of its $${budget} budget (budget_usd) by node "${nodeId}"`,
  );
}
