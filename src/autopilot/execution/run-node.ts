import type { RegisteredAgent, RunResult, RunService } from '../../agents/index.js';
import { AppError } from '../../errors.js';
import type { ChatMessage } from '../../llm/index.js';
import type { Blueprint, BlueprintNode } from '../blueprints/blueprint.schema.js';
import type { StepResult } from '../missions/mission.types.js';
import { MISSION_STEP_AGENT, nodeAgentName, type NodeAgents } from './node-agents.js';

export interface NodeRunSettings {
  maxIterations: number;
  temperature: number;
  /** `autopilot.model`, for nodes that name none. */
  defaultModel?: string;
}

export interface NodeRunRequest {
  missionId: string;
  executionId: string;
  stepIndex: number;
  blueprint: Blueprint;
  node: BlueprintNode;
  prompt: string;
  signal: AbortSignal;
  /** What is left of the mission's budget: the run stops before a model call that would start past it. */
  remainingBudgetUsd?: number;
  /** A fine-tuned model that took over the blueprint's steps: it wins over node.model and autopilot.model. */
  modelOverride?: string;
  /** The trace that created the mission: the step's run span links to it. */
  traceparent?: string | null;
}

export interface NodeRunDeps {
  runs: RunService;
  nodeAgents: NodeAgents;
  settings: NodeRunSettings;
  now(): string;
}

/** Runs one node as an agent run (source autopilot) and returns its step result and, when it did not complete, why. */
export async function runNode(
  deps: NodeRunDeps,
  request: NodeRunRequest,
): Promise<{ step: StepResult; error?: AppError }> {
  const agent = nodeAgent(deps, request);
  const messages: ChatMessage[] = [
    { role: 'system', content: agent.system_prompt },
    { role: 'user', content: request.prompt },
  ];
  const startedAt = deps.now();
  const started = performance.now();
  const unregister = deps.nodeAgents.register(agent);
  let result: RunResult | undefined;
  let runId: string | null = null;
  let error: AppError | undefined;
  try {
    const handle = await deps.runs.start({
      agentName: agent.name,
      messages: messages.slice(1),
      source: 'autopilot',
      signal: request.signal,
      traceparent: request.traceparent,
      mission: { agentName: MISSION_STEP_AGENT, missionId: request.missionId, step: request.node.id },
    });
    runId = handle.runId;
    result = await handle.result;
    if (result.status !== 'completed') error = result.error;
  } catch (thrown) {
    error =
      thrown instanceof AppError
        ? thrown
        : new AppError({
            code: 'internal_error',
            message: (thrown as Error).message,
            cause: thrown,
          });
  } finally {
    unregister();
  }
  const output = result?.output ?? '';
  const step: StepResult = {
    execution_id: request.executionId,
    step_index: request.stepIndex,
    node_id: request.node.id,
    run_id: runId,
    status: !error ? 'completed' : result?.status === 'cancelled' ? 'cancelled' : 'failed',
    output,
    messages: [...messages, { role: 'assistant', content: output }],
    telemetry: {
      cost_usd: result?.costUsd ?? 0,
      input_tokens: result?.usage.inputTokens ?? 0,
      output_tokens: result?.usage.outputTokens ?? 0,
      model_used: agent.model,
      latency_ms: Math.round(performance.now() - started),
    },
    error: error ? { code: error.code, message: error.message } : null,
    started_at: startedAt,
    finished_at: deps.now(),
  };
  return { step, error };
}

function nodeAgent(deps: NodeRunDeps, request: NodeRunRequest): RegisteredAgent {
  const model = request.modelOverride ?? request.node.model ?? deps.settings.defaultModel ?? '';
  const slash = model.indexOf('/');
  return {
    name: nodeAgentName(request.missionId, request.node.id),
    model,
    provider: model.slice(0, slash),
    model_id: model.slice(slash + 1),
    system_prompt: systemPrompt(request.blueprint, request.node),
    description: `Autopilot node "${request.node.id}" of blueprint ${request.blueprint.id}`,
    capabilities: [],
    tools: request.node.tools,
    temperature: deps.settings.temperature,
    max_iterations: request.node.max_steps ?? deps.settings.maxIterations,
    a2a: false,
    max_cost_per_run_usd: request.remainingBudgetUsd,
    registered_at: deps.now(),
  };
}

// The node's role is a short noun in most blueprints ("researcher"); a sentence is used as written.
function systemPrompt(blueprint: Blueprint, node: BlueprintNode): string {
  const role = node.role.trim();
  const persona = !role
    ? 'You are one step of an automated mission.'
    : /\s/.test(role)
      ? role
      : `You are the ${role} of an automated mission.`;
  return `${persona}\nMission: ${blueprint.title}${blueprint.description ? ` (${blueprint.description})` : ''}`;
}
