import type { AgentRegistry, RegisteredAgent } from '../../agents/index.js';

/**
 * Autopilot nodes run as agent runs, but each node brings its own prompt, tools and model. Until the
 * run service takes an ad-hoc agent per run, the run service is given this registry: the configured
 * agents plus one transient agent per node run, named `autopilot:<mission>:<node>` (a colon is never
 * valid in a configured agent name, so the two cannot collide). Listing shows configured agents only.
 */
export interface NodeAgents {
  readonly registry: AgentRegistry;
  /** Makes the agent resolvable until the returned function is called. */
  register(agent: RegisteredAgent): () => void;
}

export function createNodeAgents(base: AgentRegistry): NodeAgents {
  const transient = new Map<string, RegisteredAgent>();
  const registry: AgentRegistry = {
    list: () => base.list(),
    get: (name) => transient.get(name) ?? base.get(name),
    find: (name) => transient.get(name) ?? base.find(name),
    has: (name) => transient.has(name) || base.has(name),
  };
  return {
    registry,
    register(agent) {
      transient.set(agent.name, agent);
      return () => {
        if (transient.get(agent.name) === agent) transient.delete(agent.name);
      };
    },
  };
}

export function nodeAgentName(missionId: string, nodeId: string): string {
  return `autopilot:${missionId}:${nodeId}`;
}
