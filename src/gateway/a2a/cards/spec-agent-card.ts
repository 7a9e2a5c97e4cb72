import type { RegisteredAgent } from '../../../agents/index.js';
import type { SpecAgentCard } from '../a2a.schema.js';
import { describeAgent } from './agent-card.js';

/** The spec's card: the agent's A2A endpoint plus what it can do and which model it runs; never its prompt. */
export function mapToSpecCard(agent: RegisteredAgent, endpoint: string): SpecAgentCard {
  return {
    name: agent.name,
    description: describeAgent(agent),
    capabilities: agent.capabilities,
    endpoint,
    model: agent.model,
  };
}
