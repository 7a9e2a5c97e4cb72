import { describe, expect, it } from 'vitest';
import type { AgentRegistry, RunService, StartRunRequest } from '../../../src/agents/index.js';
import { classifyFailure } from '../../../src/autopilot/healing/classify-failure.js';
import { executeGraph } from '../../../src/autopilot/execution/execute-graph.js';
import type { ExecutionStore } from '../../../src/autopilot/execution/execution.store.js';
import { recommendHealing } from '../../../src/autopilot/healing/healing.js';
import type { ExecutionRecord, MissionRecord, StepResult } from '../../../src/autopilot/missions/mission.types.js';
import { createNodeAgents } from '../../../src/autopilot/execution/node-agents.js';
import { validateBlueprint } from '../../../src/autopilot/blueprints/validate-blueprint.js';
import { BudgetExceededError, UpstreamError } from '../../../src/errors.js';
import { ONE_OFF_REPORT } from '../blueprints.js';

/** A run service whose every run completes at once, costing `costUsd`, and which checks the node agent is resolvable. */
function fakeRuns(
  costUsd: number,
  registry: () => AgentRegistry,
): { runs: RunService; started: StartRunRequest[]; limits: (number | undefined)[] } {
  const started: StartRunRequest[] = [];
  const limits: (number | undefined)[] = [];
  const runs = {
    async start(request: StartRunRequest) {
      started.push(request);
      const agent = registry().get(request.agentName);
      limits.push(agent.max_cost_per_run_usd);
      const result = {
        runId: `run_${started.length}`,
        status: 'completed' as const,
        finishReason: 'stop' as const,
        output: `out ${agent.name}`,
        usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
        costUsd,
        steps: 1,
      };
      return { runId: result.runId, agentName: agent.name, result: Promise.resolve(result) };
    },
  } as unknown as RunService;
  return { runs, started, limits };
}

function graphRun(costUsd: number, budget: number | null) {
  const base = {
    list: () => [],
    get: () => {
      throw new Error('unknown');
    },
    find: () => undefined,
    has: () => false,
  } as AgentRegistry;
  const nodeAgents = createNodeAgents(base);
  const { runs, started, limits } = fakeRuns(costUsd, () => nodeAgents.registry);
  const steps: StepResult[] = [];
  const executions = { insertStep: async (step: StepResult) => void steps.push(step) } as unknown as ExecutionStore;
  const blueprint = validateBlueprint(ONE_OFF_REPORT, {
    toolExists: () => true,
    modelExists: () => true,
    defaultModel: 'upstream/m',
  });
  const mission = {
    mission_id: 'mis_1',
    slots: { topic: 't', audience: 'a' },
    goal: null,
    budget_usd: budget,
  } as unknown as MissionRecord;
  const deps = {
    runs,
    nodeAgents,
    executions,
    settings: { maxIterations: 2, temperature: 0 },
    now: () => '2026-11-23T08:00:00.000Z',
  };
  return {
    outcome: executeGraph(deps, mission, blueprint, 'job_1', new AbortController().signal),
    steps,
    started,
    limits,
    nodeAgents,
  };
}

describe('mission budget', () => {
  it('stops once the spend passes budget_usd, after recording the step that crossed it', async () => {
    const run = graphRun(0.3, 0.25);
    const outcome = await run.outcome;
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBeInstanceOf(BudgetExceededError);
    expect(outcome.error?.code).toBe('budget_exceeded');
    expect(run.steps.map((step) => step.node_id)).toEqual(['draft']);
    expect(classifyFailure(outcome.error)).toBe('budget_exceeded');
  });

  it('runs every node within budget, as transient agents that are gone afterwards', async () => {
    const run = graphRun(0.1, 1);
    expect(await run.outcome).toEqual({ status: 'completed', costUsd: 0.2 });
    expect(run.started.map((request) => [request.agentName, request.source])).toEqual([
      ['autopilot:mis_1:draft', 'autopilot'],
      ['autopilot:mis_1:polish', 'autopilot'],
    ]);
    expect(run.started[1].messages[0].content).toBe('Polish this report: out autopilot:mis_1:draft');
    expect(run.nodeAgents.registry.has('autopilot:mis_1:draft')).toBe(false);
    // Each node run may spend only what is left of the mission's budget.
    expect(run.limits).toEqual([1, 0.9]);
  });
});

function execution(status: ExecutionRecord['status'], fields: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    execution_id: 'job',
    attempt: 1,
    mission_id: 'mis',
    project_id: 'p',
    blueprint_id: 'b',
    trigger: 'schedule',
    scheduled_for: null,
    status,
    started_at: '',
    finished_at: '',
    duration_ms: 1000,
    cost_usd: 0.1,
    error_code: null,
    error_message: null,
    failure_class: null,
    ...fields,
  };
}

describe('healing signals across executions', () => {
  it('flags a success rate below 0.8 over the last executions', () => {
    const history = [
      execution('completed'),
      execution('failed'),
      execution('completed'),
      execution('failed'),
      execution('completed'),
    ];
    expect(recommendHealing({ executions: [history[0]], blueprintHistory: history })).toEqual([
      expect.objectContaining({ action: 'alert_operator', reason: 'low_success_rate' }),
    ]);
  });

  it('flags cost above twice and duration above three times the estimate', () => {
    const latest = execution('completed', { cost_usd: 0.5, duration_ms: 40_000 });
    const found = recommendHealing({
      executions: [latest],
      blueprintHistory: [latest],
      estimatedCostUsd: 0.2,
      estimatedDurationSeconds: 10,
    });
    expect(found.map((item) => item.reason)).toEqual(['cost_above_estimate', 'duration_above_estimate']);
  });

  it('recommends by failure class and stays quiet for a healthy mission', () => {
    const failed = execution('failed', {
      failure_class: 'tool_error',
      error_code: 'max_iterations_exceeded',
      error_message: 'too many',
    });
    expect(recommendHealing({ executions: [failed], blueprintHistory: [failed] })).toEqual([
      expect.objectContaining({ action: 'review_tool', severity: 'warning' }),
    ]);
    expect(
      recommendHealing({ executions: [execution('completed')], blueprintHistory: [execution('completed')] }),
    ).toEqual([]);
  });

  it('classifies upstream failures by status', () => {
    expect(classifyFailure(new UpstreamError({ message: 'x', retryable: true, upstreamStatus: 502 }))).toBe('upstream');
    expect(classifyFailure(new UpstreamError({ message: 'x', retryable: false, upstreamStatus: 403 }))).toBe('auth');
    expect(classifyFailure(new UpstreamError({ message: 'x', retryable: false, timeout: true }))).toBe('upstream');
    expect(classifyFailure(new Error('boom'))).toBe('internal');
  });
});
