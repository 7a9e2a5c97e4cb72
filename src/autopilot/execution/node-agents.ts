import type { AgentRegistry, RegisteredAgent } from '../../agents/index.js';

/**
 * Autopilot nodes run as agent runs, but each node brings its own prompt, tools and model. Until the
 * run service takes an ad-hoc agent per run, the run service is given this registry: the configured
 * agents plus one transient agent per node run, named `autopilot:<mission>:<node>` (a colon is never
 * valid in a configured agent name, so the two cannot collide). Listing shows configured agents only.
 *
 * That name is the run's (the runs list shows which mission and step a run served). Analytics count a step's
 * model calls and guardrail hits under MISSION_STEP_AGENT instead, with the mission and the step as dimensions
 * of their own, so the agents in analytics do not grow with every mission.
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

/**
 * The agent analytics count every mission step under. A node is made from its blueprint node and the autopilot
 * settings, not from a configured agent, so it has no agent of its own to be counted under; `@` is never valid
 * in a configured agent name, so this one cannot be mistaken for (or add to the limits of) a configured agent.
 */
export const MISSION_STEP_AGENT = '@autopilot';

export function nodeAgentName(missionId: string, nodeId: string): string {
  return `autopilot:${missionId}:${nodeId}`;
}
