import type { GuardrailsConfig } from '../../config/index.js';
import { createGuardrails, resolveGuardrails, type Guardrails } from '../../guardrails/index.js';
import type { RegisteredAgent } from './agent-registry.js';

/** An agent's guardrails (its overrides merged over the global section); undefined when every check is off. */
export type GuardrailsFor = (agent: RegisteredAgent) => Guardrails | undefined;

/** Compiles each agent's guardrails once, on its first run, not per request. */
export function createAgentGuardrails(global: GuardrailsConfig): GuardrailsFor {
  // Keyed by the agent object: transient agents (autopilot nodes) are forgotten with them.
  const built = new WeakMap<RegisteredAgent, Guardrails | null>();
  return (agent) => {
    let guardrails = built.get(agent);
    if (guardrails === undefined) {
      const config = resolveGuardrails(global, agent.guardrails);
      const enabled = Boolean(config.pii?.enabled || config.content_filter?.enabled || config.hallucination?.enabled);
      guardrails = enabled ? createGuardrails(config) : null;
      built.set(agent, guardrails);
    }
    return guardrails ?? undefined;
  };
}
