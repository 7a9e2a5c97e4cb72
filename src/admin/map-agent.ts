import type { AgentRunCounts, RegisteredAgent } from '../agents/index.js';
import type { AgentDetail, AgentSummary } from './agents.schema.js';

/** `counts` holds every agent's runs; an agent without any has none there. */
export function mapAgentSummary(agent: RegisteredAgent, counts: Map<string, AgentRunCounts>): AgentSummary {
  const runs = counts.get(agent.name);
  return {
    name: agent.name,
    model: agent.model,
    status: (runs?.active ?? 0) > 0 ? 'running' : 'idle',
    total_runs: runs?.total ?? 0,
    registered_at: agent.registered_at,
  };
}

export function mapAgentDetail(agent: RegisteredAgent, counts: Map<string, AgentRunCounts>): AgentDetail {
  return {
    ...mapAgentSummary(agent, counts),
    system_prompt: agent.system_prompt,
    tools: agent.tools,
    config: {
      temperature: agent.temperature,
      max_iterations: agent.max_iterations,
      max_tokens: agent.max_tokens ?? null,
    },
    description: agent.description,
    capabilities: agent.capabilities,
  };
}
