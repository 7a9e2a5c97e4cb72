import type { AgentConfig } from '../../config/index.js';
import { NotFoundError } from '../../errors.js';
import { isoNow } from '../../ids.js';
import type { AgentStore } from './agent.store.js';

/** A configured agent plus what the store remembers about it. */
export interface RegisteredAgent extends AgentConfig {
  /** First time this agent name was served by this deployment; kept across restarts. */
  registered_at: string;
  /** The provider part of `model`. */
  provider: string;
  /** The model id part of `model`. */
  model_id: string;
}

export interface AgentRegistry {
  list(): RegisteredAgent[];
  /** Throws NotFoundError (404) for an unknown name. */
  get(name: string): RegisteredAgent;
  find(name: string): RegisteredAgent | undefined;
  has(name: string): boolean;
}

export async function createAgentRegistry(options: {
  agents: AgentConfig[];
  store: AgentStore;
}): Promise<AgentRegistry> {
  const registeredAt = await options.store.register(
    options.agents.map((agent) => agent.name),
    isoNow(),
  );
  const agents = new Map<string, RegisteredAgent>(
    options.agents.map((agent) => {
      const slash = agent.model.indexOf('/');
      return [
        agent.name,
        {
          ...agent,
          provider: agent.model.slice(0, slash),
          model_id: agent.model.slice(slash + 1),
          registered_at: registeredAt.get(agent.name) ?? isoNow(),
        },
      ];
    }),
  );
  return {
    list: () => [...agents.values()],
    get(name) {
      const agent = agents.get(name);
      if (!agent) throw new NotFoundError(`No agent named "${name}"`, 'agent_not_found');
      return agent;
    },
    find: (name) => agents.get(name),
    has: (name) => agents.has(name),
  };
}
